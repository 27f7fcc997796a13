import torch
import torch.nn as nn


class CorrelationPenalty(nn.Module):
    """Penalizes correlation between a residual branch's input x and its update y."""

    def __init__(self, limit: float = 0.03, max_channels: int = 512):
        super().__init__()
        self.limit = limit
        self.max_channels = max_channels

    @staticmethod
    def _norm(x):
        return x / ((x ** 2).mean(dim=-1, keepdim=True) + 1.0e-20).sqrt()

    def forward(self, x, y, mask=None):
        batch_size = x.shape[0]
        y = self._norm(y - x)
        x = self._norm(x)
        if mask is not None:
            keep = (~mask).to(x.dtype).unsqueeze(-1)
            x, y = x * keep, y * keep
        if batch_size // 2 <= 1:
            return x.new_zeros(())

        x = torch.cat((x, y), dim=-1)
        C = x.shape[-1]
        x1, x2 = x[0::2], x[1::2]
        x1 = x1.reshape(-1, C)
        x2 = x2.reshape(-1, C)
        if mask is not None:
            numel1, numel2 = (~mask[0::2]).sum(), (~mask[1::2]).sum()
        else:
            numel1, numel2 = x1.shape[0], x2.shape[0]

        if C > self.max_channels:
            indexes = torch.rand(2, C, device=x.device).sort(dim=1)[1]
            indexes = indexes[:, :self.max_channels]
            x1 = x1.index_select(dim=2, index=indexes[0])
            x2 = x2.index_select(dim=2, index=indexes[1])

        S1 = torch.matmul(x1.t(), x1) * (1. / numel1)
        S2 = torch.matmul(x2.t(), x2) * (1. / numel2)
        correlation = (S1 * S2).mean()
        return (correlation - self.limit).relu()


if __name__ == "__main__":
    torch.manual_seed(0)
    penalty = CorrelationPenalty(limit=0.01, max_channels=16)
    src_orig = torch.randn(4, 10, 24)
    src = src_orig + 0.5 * torch.tanh(src_orig @ torch.randn(24, 24))
    mask = torch.zeros(4, 10, dtype=torch.bool)
    mask[1, 7:] = True
    torch.manual_seed(123)
    loss = penalty(src_orig, src, mask)
    print("correlation penalty:", loss.item())
