import torch
import torch.nn as nn
import torch.nn.functional as F


class CrossScorer(nn.Module):
    def __init__(self):
        super().__init__()
        self.q = nn.Linear(12, 16)
        self.d = nn.Linear(12, 16)

    def forward(self, query, docs):
        return torch.einsum("bh,bnh->bn", torch.tanh(self.q(query)), torch.tanh(self.d(docs)))


def distill_step(student, opt, query, docs, clicked, teacher_scores):
    scores = student(query, docs)
    clicked_score = scores.gather(1, clicked.unsqueeze(1)).squeeze(1)
    target = teacher_scores.gather(1, clicked.unsqueeze(1)).squeeze(1)
    loss = F.mse_loss(clicked_score, target)
    opt.zero_grad()
    loss.backward()
    opt.step()
    return loss.item()


if __name__ == "__main__":
    torch.manual_seed(0)
    student = CrossScorer()
    opt = torch.optim.SGD(student.parameters(), lr=0.05)
    query, docs = torch.randn(16, 12), torch.randn(16, 8, 12)
    clicked = torch.randint(0, 8, (16,))
    teacher_scores = torch.randn(16, 8) * 2
    with torch.no_grad():
        before = student(query, docs).gather(1, clicked.unsqueeze(1))[:, 0]
    target = teacher_scores[torch.arange(16), clicked]
    loss = distill_step(student, opt, query, docs, clicked, teacher_scores)
    per_query = sum((before[i] - target[i]) ** 2 for i in range(16)) / 16
    assert abs(loss - per_query.item()) < 1e-5
    print("ok")
