import math

import torch
import torch.nn as nn
from jaxtyping import Float, Int
from torch import Tensor

IMAGE_TOKEN = 3


def build_prompt(text_ids: list[int], image_hw: tuple[int, int], patch: int) -> Int[Tensor, "seq"]:
    h, w = image_hw
    n_image_tokens = math.ceil(h / patch) * math.ceil(w / patch)
    return torch.tensor([1] + [IMAGE_TOKEN] * n_image_tokens + text_ids)


class TinyVLM(nn.Module):
    def __init__(self, vocab: int, dim: int, patch: int):
        super().__init__()
        self.embed = nn.Embedding(vocab, dim)
        self.patch_embed = nn.Conv2d(3, dim, kernel_size=patch, stride=patch)

    def encode_image(self, pixels: Float[Tensor, "3 H W"]) -> Float[Tensor, "n_patches dim"]:
        return self.patch_embed(pixels[None]).flatten(2).squeeze(0).transpose(0, 1)

    def merge(
        self,
        input_ids: Int[Tensor, "seq"],
        text_embeds: Float[Tensor, "seq dim"],
        image_feats: Float[Tensor, "n_patches dim"],
    ) -> Float[Tensor, "seq dim"]:
        positions = (input_ids == IMAGE_TOKEN).nonzero().squeeze(-1)
        index = positions[:, None].expand(-1, text_embeds.size(-1))
        return text_embeds.scatter(0, index, image_feats)

    def forward(self, input_ids: Int[Tensor, "seq"], pixels: Float[Tensor, "3 H W"]) -> Float[Tensor, "seq dim"]:
        return self.merge(input_ids, self.embed(input_ids), self.encode_image(pixels))


if __name__ == "__main__":
    torch.manual_seed(0)
    patch = 14
    model = TinyVLM(vocab=50, dim=32, patch=patch)
    pixels = torch.rand(3, 100, 60)
    ids = build_prompt([7, 8, 9, 2], image_hw=(100, 60), patch=patch)
    out = model(ids, pixels)
    print("merged", tuple(out.shape))
