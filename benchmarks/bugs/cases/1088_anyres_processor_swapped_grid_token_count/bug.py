from dataclasses import dataclass

import torch
import torch.nn as nn


@dataclass
class LlavaNextCfg:
    patches_per_side: int = 4      # P: patch grid of one 336px tile
    hidden: int = 8                # D
    image_token_id: int = 99
    vocab_size: int = 100


def num_image_tokens(grid, cfg):
    # grid = (rows, cols) of high-res tiles chosen for this image
    current_width, current_height = (d * cfg.patches_per_side for d in grid)
    base = cfg.patches_per_side ** 2                       # low-res overview tile
    return base + current_height * (current_width + 1)     # one newline token per feature row


def build_prompt(text_ids, grid, cfg):
    return [text_ids[0]] + [cfg.image_token_id] * num_image_tokens(grid, cfg) + text_ids[1:]


class TinyLlavaNext(nn.Module):
    def __init__(self, cfg):
        super().__init__()
        self.cfg = cfg
        self.embed_tokens = nn.Embedding(cfg.vocab_size, cfg.hidden)
        self.image_newline = nn.Parameter(torch.randn(cfg.hidden))

    def pack_image_features(self, tile_feats, grid):
        # tile_feats: (1 + rows*cols, P*P, D) -> (num_features, D)
        rows, cols = grid
        P, D = self.cfg.patches_per_side, self.cfg.hidden
        base = tile_feats[0]                                                        # (P*P, D)
        hr = tile_feats[1:].view(rows, cols, P, P, D).permute(0, 2, 1, 3, 4)      # (rows, P, cols, P, D)
        hr = hr.reshape(rows * P, cols * P, D)                                     # (H, W, D)
        nl = self.image_newline.view(1, 1, D).expand(rows * P, 1, D)               # (H, 1, D)
        hr = torch.cat([hr, nl], dim=1).flatten(0, 1)                              # (H*(W+1), D)
        return torch.cat([base, hr], dim=0)

    def forward(self, input_ids, tile_feats, grid):
        inputs_embeds = self.embed_tokens(input_ids)                               # (L, D)
        image_features = self.pack_image_features(tile_feats, grid)               # (N_img, D)
        image_mask = input_ids == self.cfg.image_token_id                          # (L,)
        inputs_embeds[image_mask] = image_features
        return inputs_embeds


if __name__ == "__main__":
    torch.manual_seed(0)
    cfg = LlavaNextCfg()
    grid = (1, 2)                                   # wide 336x672 image -> one row of two tiles
    input_ids = torch.tensor(build_prompt([1, 5, 6, 7], grid, cfg))
    tile_feats = torch.randn(1 + grid[0] * grid[1], cfg.patches_per_side ** 2, cfg.hidden)
    model = TinyLlavaNext(cfg)
    with torch.no_grad():
        out = model(input_ids, tile_feats, grid)
    print(out.shape)
