import torch
import torch.nn as nn
from jaxtyping import Float, Int
from torch import Tensor


class OffsetHead(nn.Module):
    def __init__(self, in_ch: int, n_offsets: int):
        super().__init__()
        self.conv = nn.Conv2d(in_ch, n_offsets, kernel_size=3, padding=1)

    def forward(self, feats: Float[Tensor, "b c h w"]) -> Float[Tensor, "b k h w"]:
        return self.conv(feats)


def peak_indices(heatmap: Float[Tensor, "b j h w"]) -> Int[Tensor, "b j"]:
    b, j, h, w = heatmap.shape
    return heatmap.view(b, j, h * w).argmax(dim=-1)


def read_offsets_at_peaks(
    offsets: Float[Tensor, "b k h w"], peaks: Int[Tensor, "b j"]
) -> Float[Tensor, "b j k"]:
    b, k, h, w = offsets.shape
    flat = offsets.view(b, k, h * w).permute(0, 2, 1)  # b, hw, k
    idx = peaks.unsqueeze(-1)  # b, j, 1
    return flat.gather(1, idx)


if __name__ == "__main__":
    torch.manual_seed(0)
    head = OffsetHead(in_ch=6, n_offsets=2)
    feats = torch.randn(2, 6, 8, 8)
    heatmap = torch.randn(2, 5, 8, 8)
    with torch.no_grad():
        offsets = head(feats)
    peaks = peak_indices(heatmap)
    got = read_offsets_at_peaks(offsets, peaks)
    print("offsets at peaks:", tuple(got.shape), "expected (2, 5, 2)")
    print(got[0])
