import torch
import torch.nn as nn
import torch.nn.functional as F


class PointerNet(nn.Module):
    def __init__(self, hidden):
        super().__init__()
        self.w_p = nn.Linear(hidden, hidden, bias=False)
        self.w_q = nn.Linear(hidden, hidden, bias=False)
        self.v = nn.Linear(hidden, 1, bias=False)

    def forward(self, passage, question_vec):
        # passage: [B, T, H], question_vec: [B, H]
        feats = torch.tanh(self.w_p(passage) + self.w_q(question_vec).unsqueeze(1))
        logits = self.v(feats)                     # [B, T, 1]
        probs = F.softmax(logits, dim=1)           # [B, T, 1]
        pooled = (probs * passage).sum(dim=1)      # [B, H]
        return probs.squeeze(-1), pooled           # [B, T], [B, H]


def span_start_loss(model, passage, question_vec, start_idx):
    probs, _ = model(passage, question_vec)
    gold = probs.gather(1, start_idx.unsqueeze(1)).squeeze(1)  # [B]
    return -torch.log(gold + 1e-12).mean()


if __name__ == "__main__":
    torch.manual_seed(0)
    model = PointerNet(hidden=8)
    passage = torch.randn(3, 10, 8)
    question = torch.randn(3, 8)
    start_idx = torch.tensor([2, 7, 0])
    loss = span_start_loss(model, passage, question, start_idx)
    with torch.no_grad():
        feats = torch.tanh(model.w_p(passage) + model.w_q(question).unsqueeze(1))
        scores = model.v(feats).squeeze(-1)
    total = 0.0
    for b in range(3):
        row = [scores[b, t].item() for t in range(10)]
        m = max(row)
        z = sum(torch.exp(torch.tensor(r - m)).item() for r in row)
        p = torch.exp(torch.tensor(row[start_idx[b]] - m)).item() / z
        total += -torch.log(torch.tensor(p + 1e-12)).item()
    assert abs(loss.item() - total / 3) < 1e-5
    probs, _ = model(passage, question)
    assert torch.allclose(probs.sum(dim=1), torch.ones(3))
    print("ok")
