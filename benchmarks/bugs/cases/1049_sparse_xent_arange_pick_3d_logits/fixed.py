import torch
import torch.nn as nn


def cross_entropy_logits_sparse(logits, labels):
    """Per-example cross-entropy from logits and integer labels."""
    picked = logits.gather(-1, labels.unsqueeze(-1)).squeeze(-1)
    return torch.logsumexp(logits, dim=-1) - picked


class Tagger(nn.Module):
    def __init__(self, vocab, dim, num_tags):
        super().__init__()
        self.emb = nn.Embedding(vocab, dim)
        self.rnn = nn.GRU(dim, dim, batch_first=True)
        self.out = nn.Linear(dim, num_tags)

    def forward(self, tokens):
        h, _ = self.rnn(self.emb(tokens))
        return self.out(h)


def train_step(model, opt, tokens, tags):
    logits = model(tokens)
    loss = cross_entropy_logits_sparse(logits, tags).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
    return loss


if __name__ == "__main__":
    torch.manual_seed(0)
    model = Tagger(vocab=50, dim=16, num_tags=32)
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    tokens = torch.randint(0, 50, (3, 5))
    tags = torch.randint(0, 32, (3, 5))
    with torch.no_grad():
        logits = model(tokens)
        ce = cross_entropy_logits_sparse(logits, tags)
        for b in range(3):
            for t in range(5):
                row = logits[b, t]
                ref = torch.log(torch.exp(row).sum()) - row[tags[b, t]]
                assert abs(ce[b, t].item() - ref.item()) < 1e-5
    train_step(model, opt, tokens, tags)
    print("ok")
