from dataclasses import dataclass

import torch
import torch.nn as nn
from jaxtyping import Float, Int
from torch import Tensor

IMAGE_TOKEN_ID = 7


@dataclass
class VisionConfig:
    image_size: int = 48
    patch_size: int = 16
    hidden_size: int = 16


class ImageProcessor:
    def __init__(self, patch_size: int = 12):
        self.patch_size = patch_size

    def num_image_tokens(self, image_size: int) -> int:
        return (image_size // self.patch_size) ** 2

    def build_prompt(self, text_ids: list[int], image_size: int) -> Int[Tensor, "seq"]:
        return torch.tensor(text_ids[:2] + [IMAGE_TOKEN_ID] * self.num_image_tokens(image_size) + text_ids[2:])


class PatchEncoder(nn.Module):
    def __init__(self, cfg: VisionConfig):
        super().__init__()
        self.cfg = cfg
        self.proj = nn.Linear(3 * cfg.patch_size * cfg.patch_size, cfg.hidden_size)

    def forward(self, image: Float[Tensor, "3 h w"]) -> Float[Tensor, "patches dim"]:
        p = self.cfg.patch_size
        patches = image.unfold(1, p, p).unfold(2, p, p).permute(1, 2, 0, 3, 4).flatten(0, 1).flatten(1)
        return self.proj(patches)


def merge_image_features(
    inputs_embeds: Float[Tensor, "seq dim"],
    input_ids: Int[Tensor, "seq"],
    image_features: Float[Tensor, "patches dim"],
) -> Float[Tensor, "seq dim"]:
    positions = (input_ids == IMAGE_TOKEN_ID).nonzero().squeeze(1)
    index = positions.unsqueeze(1).expand(-1, inputs_embeds.shape[1])
    return inputs_embeds.scatter(0, index, image_features)


if __name__ == "__main__":
    torch.manual_seed(0)
    cfg = VisionConfig()
    text_embed = nn.Embedding(100, cfg.hidden_size)
    input_ids = ImageProcessor().build_prompt([1, 12, 40, 41, 42], cfg.image_size)
    image_features = PatchEncoder(cfg)(torch.randn(3, cfg.image_size, cfg.image_size))
    merged = merge_image_features(text_embed(input_ids), input_ids, image_features)
    print(merged.shape)
