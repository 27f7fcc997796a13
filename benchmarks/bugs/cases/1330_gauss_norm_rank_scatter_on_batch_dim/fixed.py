import torch
import torch.nn as nn


class ReconstructionHead(nn.Module):
    """Predicts rank-gaussianized log-mel features from the encoder output."""

    def __init__(self, encoder_dim: int, num_mel_bins: int):
        super().__init__()
        self.proj = nn.Linear(encoder_dim, num_mel_bins)

    @staticmethod
    def gauss_norm(x: torch.Tensor) -> torch.Tensor:
        # x: (N, T, C).  Normalize each (utterance, channel) track by replacing
        # every value with the gaussian quantile of its rank along time.
        values, indexes = x.sort(dim=1)  # sort on seq dim; indexes: (N, T, C)
        N = max(2, x.shape[1])
        norm_rank = torch.linspace(-1 + 1. / N, 1. - 1. / N, x.shape[1], device=x.device, dtype=torch.float)
        norm_rank = torch.special.erfinv(norm_rank)  # maps to Gaussian-distributed data
        norm_rank = norm_rank.reshape(1, -1, 1)
        norm_rank = norm_rank.repeat(x.shape[0], 1, x.shape[2])
        x_norm = torch.empty_like(x)
        x_norm.scatter_(dim=1, index=indexes, src=norm_rank)
        return x_norm

    def forward(self, log_mels: torch.Tensor, encoder_out: torch.Tensor) -> torch.Tensor:
        # log_mels: (N, T, C); encoder_out: (N, T, D)
        target = self.gauss_norm(log_mels)
        pred = self.proj(encoder_out)  # (N, T, C)
        return ((pred - target) ** 2).mean()


if __name__ == "__main__":
    torch.manual_seed(0)
    head = ReconstructionHead(encoder_dim=16, num_mel_bins=8)
    log_mels = torch.randn(2, 20, 8) * 3.0 + 1.0
    encoder_out = torch.randn(2, 20, 16)
    normed = head.gauss_norm(log_mels)
    N, T, C = log_mels.shape
    levels = torch.special.erfinv(torch.linspace(-1 + 1. / T, 1. - 1. / T, T))
    ref = torch.empty_like(log_mels)
    for n in range(N):
        for c in range(C):
            track = log_mels[n, :, c].tolist()
            order = sorted(range(T), key=lambda t: track[t])
            for rank, t in enumerate(order):
                ref[n, t, c] = levels[rank]
    assert torch.allclose(normed, ref, atol=1e-6)
    loss = head(log_mels, encoder_out)
    assert torch.isclose(loss, ((head.proj(encoder_out) - ref) ** 2).mean())
    print("ok")
