from dataclasses import dataclass

import torch
import torch.nn as nn
from jaxtyping import Float, Int


@dataclass
class VLMConfig:
    vocab_size: int = 100
    hidden: int = 32
    image_size: int = 112
    patch_size: int = 16
    pool: int = 2                 # projector merges pool x pool patches
    image_token_id: int = 99


class VisionTower(nn.Module):
    def __init__(self, cfg: VLMConfig):
        super().__init__()
        self.cfg = cfg
        self.patch = nn.Conv2d(3, cfg.hidden, cfg.patch_size, cfg.patch_size)
        self.pool = nn.AvgPool2d(cfg.pool)

    def forward(self, pixels: Float[torch.Tensor, "n 3 h w"]) -> Float[torch.Tensor, "n tokens hidden"]:
        x = self.pool(self.patch(pixels))
        return x.flatten(2).transpose(1, 2)


def build_prompt(cfg: VLMConfig, text_ids: list[int]) -> list[int]:
    num_image_tokens = (cfg.image_size // cfg.patch_size) ** 2
    return text_ids[:2] + [cfg.image_token_id] * num_image_tokens + text_ids[2:]


def merge_vision_text_embeddings(
    input_ids: Int[torch.Tensor, "batch seq"],
    inputs_embeds: Float[torch.Tensor, "batch seq hidden"],
    image_features: Float[torch.Tensor, "n tokens hidden"],
    image_token_id: int,
) -> Float[torch.Tensor, "batch seq hidden"]:
    special_image_mask = (input_ids == image_token_id).unsqueeze(-1).expand_as(inputs_embeds)
    image_features = image_features.reshape(-1, image_features.shape[-1]).to(inputs_embeds.dtype)
    return inputs_embeds.masked_scatter(special_image_mask, image_features)


if __name__ == "__main__":
    torch.manual_seed(0)
    cfg = VLMConfig()
    embed = nn.Embedding(cfg.vocab_size, cfg.hidden)
    tower = VisionTower(cfg)
    input_ids = torch.tensor([build_prompt(cfg, [1, 5, 7, 9, 11])])
    pixels = torch.randn(1, 3, cfg.image_size, cfg.image_size)
    feats = tower(pixels)
    print("placeholders:", int((input_ids == cfg.image_token_id).sum()), "image features:", feats.shape[1])
    merged = merge_vision_text_embeddings(input_ids, embed(input_ids), feats, cfg.image_token_id)
    print("merged:", tuple(merged.shape))
