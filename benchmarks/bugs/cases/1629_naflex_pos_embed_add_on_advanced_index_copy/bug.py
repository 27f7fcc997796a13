from typing import Dict, List, Tuple

import torch
import torch.nn as nn
import torch.nn.functional as F


class FlexPosEmbed(nn.Module):
    """Learned 2-D position embedding resized per image for variable-resolution batches."""

    def __init__(self, embed_dim: int, base_grid: Tuple[int, int] = (16, 16), interp_mode: str = "bicubic"):
        super().__init__()
        self.pos_embed = nn.Parameter(torch.randn(1, base_grid[0], base_grid[1], embed_dim) * 0.02)  # 1,H,W,C
        self.interp_mode = interp_mode

    def forward(self, x: torch.Tensor, grid_sizes: List[Tuple[int, int]]) -> torch.Tensor:
        # x: B,N,C patch tokens, padded to the longest sequence in the batch
        orig_h, orig_w = self.pos_embed.shape[1:3]

        size_to_indices: Dict[Tuple[int, int], List[int]] = {}
        for bi, hw in enumerate(grid_sizes):
            size_to_indices.setdefault(tuple(hw), []).append(bi)

        pos_embed_nchw = self.pos_embed.permute(0, 3, 1, 2).float()  # 1,C,H,W
        for (h, w), batch_indices in size_to_indices.items():
            if (h, w) == (orig_h, orig_w):
                pos_embed_flat = self.pos_embed.reshape(1, orig_h * orig_w, -1)  # 1,H*W,C
            else:
                pos_embed_flat = F.interpolate(
                    pos_embed_nchw, size=(h, w), mode=self.interp_mode, align_corners=False, antialias=True
                ).flatten(2).transpose(1, 2)  # 1,h*w,C
            pos_embed_flat = pos_embed_flat.to(dtype=x.dtype)
            seq_len = min(x.shape[1], pos_embed_flat.shape[1])
            x[batch_indices, :seq_len].add_(pos_embed_flat[:, :seq_len])
        return x


def pad_tokens(token_list: List[torch.Tensor]) -> torch.Tensor:
    max_len = max(t.shape[0] for t in token_list)
    out = token_list[0].new_zeros(len(token_list), max_len, token_list[0].shape[1])  # B,N,C
    for i, t in enumerate(token_list):
        out[i, : t.shape[0]] = t
    return out


if __name__ == "__main__":
    torch.manual_seed(0)
    embed = FlexPosEmbed(embed_dim=32)
    grid_sizes = [(16, 16), (12, 20), (16, 16), (8, 24)]
    tokens = pad_tokens([torch.randn(h * w, 32) for h, w in grid_sizes])
    before = tokens.clone()
    with torch.no_grad():
        out = embed(tokens, grid_sizes)
    print("tokens changed by the position embedding:", not torch.equal(out, before))
    print("max |out - tokens|:", (out - before).abs().max().item())
