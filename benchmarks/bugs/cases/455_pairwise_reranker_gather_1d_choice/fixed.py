import torch
import torch.nn as nn
import torch.nn.functional as F


class CandidateScorer(nn.Module):
    def __init__(self, query_dim, doc_dim, hidden):
        super().__init__()
        self.q = nn.Linear(query_dim, hidden)
        self.d = nn.Linear(doc_dim, hidden)

    def forward(self, queries, candidates):
        # queries: [B, Dq], candidates: [B, K, Dd] -> scores: [B, K]
        q = self.q(queries).unsqueeze(1)
        d = self.d(candidates)
        return (q * d).sum(-1)


def listwise_loss(scores, clicked):
    # scores: [B, K], clicked: [B] position of the clicked candidate
    log_probs = F.log_softmax(scores, dim=-1)
    picked = torch.gather(log_probs, 1, clicked.unsqueeze(1))  # [B, 1]
    return -picked.mean()


def train_step(model, optimizer, batch):
    scores = model(batch["query"], batch["candidates"])
    loss = listwise_loss(scores, batch["clicked"])
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    return loss.item()


if __name__ == "__main__":
    torch.manual_seed(0)
    model = CandidateScorer(query_dim=24, doc_dim=40, hidden=32)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    batch = {
        "query": torch.randn(16, 24),
        "candidates": torch.randn(16, 10, 40),
        "clicked": torch.randint(0, 10, (16,)),
    }
    with torch.no_grad():
        s = model(batch["query"], batch["candidates"])
    terms = []
    for b in range(16):
        row = s[b]
        terms.append(-(row[batch["clicked"][b]] - torch.logsumexp(row, dim=0)))
    expected = torch.stack(terms).mean().item()
    got = train_step(model, optimizer, batch)
    assert abs(got - expected) < 1e-5, (got, expected)
    print("ok")
