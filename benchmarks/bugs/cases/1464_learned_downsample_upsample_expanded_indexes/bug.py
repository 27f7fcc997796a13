import torch
import torch.nn as nn
from torch import Tensor


class LearnedDownsampling(nn.Module):
    """Keep the highest-scoring 1/d of the frames, in their original order.

    Args:
        embed_dim: channel dimension of the input frames.
        downsampling_factor: keep ceil(seq_len / downsampling_factor) frames.
        check_roundtrip: if True, verify that upsample(downsample(x)) == x.
    """

    def __init__(self, embed_dim: int, downsampling_factor: int, check_roundtrip: bool = False):
        super().__init__()
        self.to_scores = nn.Linear(embed_dim, 1, bias=False)
        self.downsampling_factor = downsampling_factor
        self.check_roundtrip = check_roundtrip

    def forward(self, x: Tensor):
        """
        Args:
            x: frames of shape (seq_len, batch_size, embed_dim).

        Returns:
            indexes: kept frame indexes, shape (batch_size, seq_len_reduced), sorted.
            x_downsampled: shape (seq_len_reduced, batch_size, embed_dim).
        """
        seq_len = x.shape[0]
        scores = self.to_scores(x).squeeze(-1).t()  # (batch_size, seq_len)
        d = self.downsampling_factor
        seq_len_reduced = (seq_len + d - 1) // d
        indexes = scores.topk(seq_len_reduced, dim=-1).indices
        indexes, _ = indexes.sort(dim=-1)
        return indexes, self.downsample(x, indexes)

    def downsample(self, x: Tensor, indexes: Tensor) -> Tensor:
        """
        Args:
            x: shape (seq_len, batch_size, num_channels).
            indexes: shape (batch_size, seq_len_reduced), 0 <= indexes < seq_len.

        Returns:
            shape (seq_len_reduced, batch_size, num_channels).
        """
        indexes = indexes.t().unsqueeze(-1).expand(-1, -1, x.shape[-1])
        ans = torch.gather(x, dim=0, index=indexes)
        if self.check_roundtrip:
            x_kept_only = self.upsample(torch.zeros_like(x), ans, indexes)
            kept = x_kept_only.abs().sum(-1) > 0
            assert torch.equal(x_kept_only[kept], x[kept])
        return ans

    def upsample(self, x_orig: Tensor, x: Tensor, indexes: Tensor) -> Tensor:
        """Reverse of downsample(); frames that were not kept take their value from x_orig.

        Args:
            x_orig: shape (seq_len, batch_size, num_channels).
            x: shape (seq_len_reduced, batch_size, num_channels).
            indexes: shape (batch_size, seq_len_reduced), the kept frame indexes.

        Returns:
            shape (seq_len, batch_size, num_channels).
        """
        seq_len, batch_size, num_channels = x_orig.shape
        not_kept = torch.ones(batch_size, seq_len, dtype=torch.bool, device=x.device)
        not_kept.scatter_(1, indexes, False)
        index3 = indexes.t().unsqueeze(-1).expand(-1, batch_size, num_channels)
        ans = torch.zeros_like(x_orig).scatter_(0, index3, x)
        return ans + x_orig * not_kept.t().unsqueeze(-1)


if __name__ == "__main__":
    torch.manual_seed(0)
    module = LearnedDownsampling(embed_dim=16, downsampling_factor=2, check_roundtrip=True)
    x = torch.randn(10, 3, 16)
    with torch.no_grad():
        indexes, x_down = module(x)
        x_up = module.upsample(x, x_down * 2.0, indexes)
    print(tuple(indexes.shape), tuple(x_down.shape), tuple(x_up.shape))
