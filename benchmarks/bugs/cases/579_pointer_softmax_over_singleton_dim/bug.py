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
        probs = F.softmax(logits, dim=-1)          # [B, T, 1]
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
    probs, _ = model(passage, question)
    print("loss:", loss.item())
    print("row sums of pointer distribution:", probs.sum(dim=1).tolist())
