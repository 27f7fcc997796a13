import torch
import torch.nn as nn
from torch import Tensor


def pool_masked(source: Tensor, mask: Tensor, num_cls: int, reduce: str = "mean") -> Tensor:
    """Reduce feature maps over the regions of an integer segmentation mask.

    `reduce` is one of 'mean', 'amax', 'amin' or 'prod'.
    """
    if source.dim() == 3:
        return _mask_reduce(source, mask, num_cls, reduce)
    return _mask_reduce_batched(source, mask, num_cls)


def _mask_reduce(source: Tensor, mask: Tensor, num_cls: int, reduce: str = "mean") -> Tensor:
    # (C, H, W), (H, W) -> (C, N)
    return _mask_reduce_batched(source.unsqueeze(0), mask.unsqueeze(0), num_cls).squeeze(0)


def _mask_reduce_batched(source: Tensor, mask: Tensor, num_cls: int) -> Tensor:
    b, c, h, w = source.shape
    output = source.new_zeros((b, c, num_cls))  # (B, C, N)
    index = mask.unsqueeze(1).expand(-1, c, -1, -1).reshape(b, c, h * w)  # (B, C, H*W)
    src = source.reshape(b, c, h * w)  # (B, C, H*W)
    output.scatter_reduce_(dim=2, index=index, src=src, reduce="mean", include_self=False)  # (B, C, N)
    return torch.nan_to_num(output, nan=0.0)


class DetConRegionHead(nn.Module):
    """Max-pools backbone features inside each mask region, then projects them."""

    def __init__(self, in_dim: int, out_dim: int, num_regions: int):
        super().__init__()
        self.num_regions = num_regions
        self.proj = nn.Linear(in_dim, out_dim)

    def forward(self, feats: Tensor, mask: Tensor) -> Tensor:
        # feats: (B, C, H, W), mask: (B, H, W) with region ids in [0, num_regions)
        pooled = pool_masked(feats, mask, self.num_regions, reduce="amax")  # (B, C, N)
        return self.proj(pooled.transpose(1, 2))  # (B, N, D)


if __name__ == "__main__":
    torch.manual_seed(0)
    feats = torch.randn(2, 8, 7, 7)  # (B, C, H, W)
    mask = torch.randint(0, 4, (2, 7, 7))  # (B, H, W)
    pooled = pool_masked(feats, mask, num_cls=4, reduce="amax")
    ref = torch.zeros(2, 8, 4)
    for bi in range(2):
        for ci in range(8):
            for r in range(4):
                vals = [feats[bi, ci, y, x].item() for y in range(7) for x in range(7) if mask[bi, y, x] == r]
                ref[bi, ci, r] = max(vals) if vals else 0.0
    print("amax pooled [0, 0]:", pooled[0, 0].tolist())
    print("loop max    [0, 0]:", ref[0, 0].tolist())
    print("max |diff|:", (pooled - ref).abs().max().item())
