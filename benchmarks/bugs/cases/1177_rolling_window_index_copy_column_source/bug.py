import torch
from torch import nn


class RollingWindow:
    def __init__(self, batch_size, window, n_features):
        self.values = torch.zeros(batch_size, window, n_features)
        self.valid = torch.zeros(batch_size, window)
        self.window = window
        self.step = 0

    def push(self, features):
        slot = torch.tensor([self.step % self.window])
        self.values.index_copy_(1, slot, features.unsqueeze(1))
        self.valid.index_copy_(1, slot, torch.ones(self.valid.size(0)))
        self.step += 1

    def mean(self):
        w = self.valid.unsqueeze(-1)
        return (self.values * w).sum(1) / w.sum(1).clamp(min=1)


class SensorForecaster(nn.Module):
    def __init__(self):
        super().__init__()
        self.head = nn.Linear(3, 1)

    def forward(self, window):
        return self.head(window.mean()).squeeze(-1)


if __name__ == "__main__":
    torch.manual_seed(0)
    buf = RollingWindow(batch_size=4, window=5, n_features=3)
    model = SensorForecaster()
    readings = torch.randn(7, 4, 3)
    for t in range(readings.size(0)):
        buf.push(readings[t])
        print("step", t, "forecast:", model(buf).tolist())
