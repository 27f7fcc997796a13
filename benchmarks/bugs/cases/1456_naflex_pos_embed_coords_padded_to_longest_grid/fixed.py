from typing import List, Tuple

import torch
import torch.nn as nn
import torch.nn.functional as F


class NaFlexPosEmbed(nn.Module):
    """Learned 2D position embedding for variable-resolution (NaFlex) patch sequences.

    Args:
        embed_dim (int): channel dimension C of the patch tokens.
        base_grid (int): side length of the learned square embedding grid.
    """

    def __init__(self, embed_dim: int, base_grid: int = 8):
        super().__init__()
        self.pos_embed = nn.Parameter(torch.randn(1, embed_dim, base_grid, base_grid) * 0.02)

    @staticmethod
    def _make_coords(h: int, w: int, device) -> torch.Tensor:
        ys, xs = torch.meshgrid(torch.arange(h, device=device), torch.arange(w, device=device), indexing="ij")
        return torch.stack([ys.flatten(), xs.flatten()], dim=1)

    def _resized_grids(self, grid_sizes: List[Tuple[int, int]]) -> torch.Tensor:
        max_h = max(h for h, _ in grid_sizes)
        max_w = max(w for _, w in grid_sizes)
        out = self.pos_embed.new_zeros(len(grid_sizes), self.pos_embed.shape[1], max_h, max_w)
        for i, (h, w) in enumerate(grid_sizes):
            out[i, :, :h, :w] = F.interpolate(self.pos_embed, size=(h, w), mode="bilinear", align_corners=False)[0]
        return out

    def forward(self, x: torch.Tensor, grid_sizes: List[Tuple[int, int]]) -> torch.Tensor:
        """Add the position embedding of every patch in place.

        Args:
            x (`torch.Tensor` of shape `(batch_size, seq_len, embed_dim)`):
                patch tokens, each image padded to the loader's fixed `seq_len`.
            grid_sizes (`List[Tuple[int, int]]`):
                patch grid (h, w) of every image, h * w <= seq_len.

        Returns:
            `torch.Tensor` of shape `(batch_size, seq_len, embed_dim)`.
        """
        B, N, _ = x.shape
        coords = torch.zeros(B, N, 2, dtype=torch.long, device=x.device)
        for i, (h, w) in enumerate(grid_sizes):
            coords[i, : h * w] = self._make_coords(h, w, x.device)  # pad slots point at (0, 0)
        pos_embed = self._resized_grids(grid_sizes)
        bi = torch.arange(B, device=x.device).unsqueeze(1)
        x += pos_embed[bi, :, coords[..., 0], coords[..., 1]]
        return x


def patchify_batch(images: List[torch.Tensor], patch: int, seq_len: int, proj: nn.Linear):
    tokens, grids = [], []
    for img in images:
        c, H, W = img.shape
        h, w = H // patch, W // patch
        p = img.unfold(1, patch, patch).unfold(2, patch, patch)  # (c, h, w, patch, patch)
        p = p.permute(1, 2, 0, 3, 4).reshape(h * w, c * patch * patch)
        tokens.append(F.pad(proj(p), (0, 0, 0, seq_len - h * w)))
        grids.append((h, w))
    return torch.stack(tokens), grids


if __name__ == "__main__":
    torch.manual_seed(0)
    proj = nn.Linear(3 * 4 * 4, 32)
    embed = NaFlexPosEmbed(embed_dim=32, base_grid=8)
    images = [torch.randn(3, 24, 20), torch.randn(3, 16, 28)]
    with torch.no_grad():
        x, grids = patchify_batch(images, patch=4, seq_len=64, proj=proj)
        x_in = x.clone()
        out = embed(x, grids)
        assert out.shape == (2, 64, 32)
        for b, (h, w) in enumerate(grids):
            grid = F.interpolate(embed.pos_embed, size=(h, w), mode="bilinear", align_corners=False)[0]
            for t in range(h * w):
                r, c = t // w, t % w
                for d in range(32):
                    assert abs(float(out[b, t, d]) - float(x_in[b, t, d] + grid[d, r, c])) < 1e-5
    print("ok")
