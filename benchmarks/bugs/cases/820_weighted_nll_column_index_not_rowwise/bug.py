import torch
import torch.nn as nn
import torch.nn.functional as F


class WeightedNLL(nn.Module):
    """Negative log-likelihood with a per-example importance weight."""

    def forward(self, probs, targets, weights):
        nll = -torch.log(probs.clamp_min(1e-8))
        selected = nll[:, targets]
        return (selected * weights).sum() / weights.sum()


def train_step(model, criterion, opt, x, y, w):
    probs = F.softmax(model(x), dim=-1)
    loss = criterion(probs, y, w)
    opt.zero_grad()
    loss.backward()
    opt.step()
    return loss.item()


if __name__ == "__main__":
    torch.manual_seed(0)
    model = nn.Sequential(nn.Linear(10, 16), nn.Tanh(), nn.Linear(16, 4))
    opt = torch.optim.SGD(model.parameters(), lr=0.05)
    x = torch.randn(6, 10)
    y = torch.randint(0, 4, (6,))
    w = torch.rand(6) + 0.5
    with torch.no_grad():
        probs = F.softmax(model(x), dim=-1)
        expected = (F.nll_loss(probs.log(), y, reduction="none") * w).sum() / w.sum()
    print("weighted nll:", train_step(model, WeightedNLL(), opt, x, y, w), "expected:", expected.item())
