from dataclasses import dataclass

import torch
import torch.nn as nn
import torch.nn.functional as F


@dataclass
class OCRConfig:
    image_size: int = 768      # tile side the prompt is built for
    patch_size: int = 16
    downsample: int = 4        # token merger after the vision tower
    hidden: int = 32
    image_token_id: int = 7


def dynamic_preprocess(image, num_tiles=2, image_size=640):
    """Split an image into ``num_tiles`` square tiles resized to ``image_size``.

    Returns:
        tiles: (num_tiles, 3, image_size, image_size)
    """
    w = image.shape[-1] // num_tiles
    crops = [image[..., i * w:(i + 1) * w] for i in range(num_tiles)]
    return torch.cat([F.interpolate(c, size=(image_size, image_size)) for c in crops])


class TinyVisionTower(nn.Module):
    def __init__(self, cfg):
        super().__init__()
        self.stride = cfg.patch_size * cfg.downsample
        self.proj = nn.Conv2d(3, cfg.hidden, self.stride, self.stride)

    def forward(self, tiles):
        """tiles: (T, 3, S, S) -> tokens: (T * (S // stride) ** 2, hidden)"""
        return self.proj(tiles).flatten(2).transpose(1, 2).reshape(-1, self.proj.out_channels)


def build_prompt(cfg, num_tiles, text_ids):
    per_tile = (cfg.image_size // cfg.patch_size // cfg.downsample) ** 2
    image_ids = torch.full((num_tiles * per_tile,), cfg.image_token_id)
    return torch.cat([image_ids, text_ids]).unsqueeze(0)


def embed_inputs(cfg, embed, tower, image, text_ids, num_tiles=2):
    """Returns inputs_embeds (1, L, hidden) with image features spliced in."""
    input_ids = build_prompt(cfg, num_tiles, text_ids)
    inputs_embeds = embed(input_ids)
    tiles = dynamic_preprocess(image, num_tiles)
    image_feats = tower(tiles)
    image_mask = (input_ids == cfg.image_token_id).unsqueeze(-1).expand_as(inputs_embeds)
    return inputs_embeds.masked_scatter(image_mask, image_feats)


if __name__ == "__main__":
    torch.manual_seed(0)
    cfg = OCRConfig()
    embed, tower = nn.Embedding(100, cfg.hidden), TinyVisionTower(cfg)
    page = torch.rand(1, 3, 900, 1200)
    with torch.no_grad():
        out = embed_inputs(cfg, embed, tower, page, torch.tensor([11, 12, 13]))
    print(out.shape)
