import math

import torch
from torch import nn


class QuantileLoss:
    """
    Quantile loss, i.e. a quantile of ``q=0.5`` will give half of the mean absolute error as it is calculated as

    Defined as ``max(q * (y-y_pred), (1-q) * (y_pred-y))``
    """

    def __init__(self, quantiles=None):
        if quantiles is None:
            quantiles = [0.02, 0.1, 0.25, 0.5, 0.75, 0.9, 0.98]
        self.quantiles = quantiles

    def loss(self, y_pred: torch.Tensor, target: torch.Tensor) -> torch.Tensor:
        # calculate quantile loss
        losses = []
        for i, q in enumerate(self.quantiles):
            errors = target - y_pred[..., i]
            losses.append(torch.max((q - 1) * errors, q * errors).unsqueeze(-1))
        losses = 2 * torch.cat(losses, dim=-1)

        return losses

    def to_prediction(self, y_pred: torch.Tensor) -> torch.Tensor:
        idx = self.quantiles.index(0.5)
        return y_pred[..., idx]


class LagWindowDataset(torch.utils.data.Dataset):
    def __init__(self, series: torch.Tensor, context_length: int):
        windows = series.unfold(0, context_length + 1, 1)
        self.x = windows[:, :-1]
        self.y = windows[:, -1]

    def __len__(self):
        return self.x.shape[0]

    def __getitem__(self, idx):
        return self.x[idx], self.y[idx]


class QuantileForecaster(nn.Module):
    """One-step-ahead forecaster predicting several quantiles of the next value."""

    def __init__(self, context_length, hidden_size, loss: QuantileLoss):
        super().__init__()
        self.loss = loss
        self.net = nn.Sequential(
            nn.Linear(context_length, hidden_size),
            nn.ReLU(),
            nn.Linear(hidden_size, len(loss.quantiles)),
        )

    def forward(self, x):
        return self.net(x)

    def training_step(self, batch):
        x, y = batch
        y_pred = self(x)
        loss = self.loss.loss(y_pred, y).mean()
        return loss


if __name__ == "__main__":
    torch.manual_seed(0)
    t = torch.arange(400, dtype=torch.float32)
    series = torch.sin(2 * math.pi * t / 24) + 0.1 * torch.randn(400)

    dataset = LagWindowDataset(series, context_length=48)
    loader = torch.utils.data.DataLoader(dataset, batch_size=32, shuffle=True)

    model = QuantileForecaster(context_length=48, hidden_size=32, loss=QuantileLoss())
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-2)

    for epoch in range(2):
        for batch in loader:
            optimizer.zero_grad()
            loss = model.training_step(batch)
            loss.backward()
            optimizer.step()

    # reference: pinball loss written out sample by sample
    x, y = dataset.x[:16], dataset.y[:16]
    with torch.no_grad():
        y_pred = model(x)
        got = model.loss.loss(y_pred, y)
    assert tuple(got.shape) == (16, 7)
    for b in range(16):
        for i, q in enumerate(model.loss.quantiles):
            err = y[b].item() - y_pred[b, i].item()
            want = 2 * max((q - 1) * err, q * err)
            assert abs(got[b, i].item() - want) < 1e-5, (b, i)
    # the (batch, time, quantile) layout of multi-horizon models still works
    y3 = torch.randn(4, 5)
    p3 = torch.randn(4, 5, 7)
    assert tuple(model.loss.loss(p3, y3).shape) == (4, 5, 7)
    print("ok")
