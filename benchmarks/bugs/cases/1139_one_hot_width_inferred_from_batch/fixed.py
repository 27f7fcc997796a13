import torch
import torch.nn as nn
import torch.nn.functional as F


class SmoothedCrossEntropy(nn.Module):
    """Cross entropy against label-smoothed targets.

    Args:
        num_classes: number of classes ``C``.
        eps: smoothing mass spread uniformly over the classes.
    """

    def __init__(self, num_classes, eps=0.1):
        super().__init__()
        self.num_classes = num_classes
        self.eps = eps

    def targets(self, labels):
        """
        Args:
            labels: (B,) int64 class ids in [0, C).
        Returns:
            (B, C) smoothed target distribution.
        """
        onehot = F.one_hot(labels, num_classes=self.num_classes).float()
        return onehot * (1.0 - self.eps) + self.eps / self.num_classes

    def forward(self, logits, labels):
        """
        Args:
            logits: (B, C) unnormalised class scores.
            labels: (B,) int64 class ids.
        Returns:
            scalar loss.
        """
        logp = F.log_softmax(logits, dim=-1)
        return -(self.targets(labels) * logp).sum(dim=-1).mean()


def train_step(model, criterion, opt, x, y):
    opt.zero_grad()
    loss = criterion(model(x), y)
    loss.backward()
    opt.step()
    return loss.item()


if __name__ == "__main__":
    torch.manual_seed(0)
    model = nn.Linear(20, 10)
    criterion = SmoothedCrossEntropy(num_classes=10)
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    x = torch.randn(8, 20)
    y = torch.tensor([3, 1, 4, 1, 5, 2, 6, 5])
    with torch.no_grad():
        logits = model(x)
    got = criterion(logits, y).item()
    ref = 0.0
    for b in range(8):
        row = logits[b].tolist()
        m = max(row)
        lse = m + torch.log(torch.tensor(sum(torch.exp(torch.tensor(v - m)).item() for v in row))).item()
        for c in range(10):
            t = (0.9 if c == int(y[b]) else 0.0) + 0.1 / 10
            ref -= t * (row[c] - lse)
    ref /= 8
    assert abs(got - ref) < 1e-5, (got, ref)
    train_step(model, criterion, opt, x, y)
    print("ok")
