import math

import torch
import torch.nn as nn
from jaxtyping import Float, Int
from torch import Tensor

PATCH, MERGE, HIDDEN, IMAGE_TOKEN = 14, 2, 48, 7


def num_image_tokens(height: int, width: int) -> int:
    """Processor side: how many <image> placeholders the prompt gets for one image."""
    return math.ceil(height / (PATCH * MERGE)) * math.ceil(width / (PATCH * MERGE))


class TinyVisionTower(nn.Module):
    def __init__(self):
        super().__init__()
        self.patch_embed = nn.Conv2d(3, HIDDEN, kernel_size=PATCH * MERGE, stride=PATCH * MERGE)

    def forward(self, pixels: Float[Tensor, "3 height width"]) -> Float[Tensor, "tokens hidden"]:
        return self.patch_embed(pixels[None]).flatten(2)[0].T


def merge_image_features(
    inputs_embeds: Float[Tensor, "seq hidden"],
    input_ids: Int[Tensor, "seq"],
    image_embeds: Float[Tensor, "tokens hidden"],
) -> Float[Tensor, "seq hidden"]:
    positions = (input_ids == IMAGE_TOKEN).nonzero()
    index = positions.expand(-1, inputs_embeds.shape[-1])
    return inputs_embeds.scatter(0, index, image_embeds)


if __name__ == "__main__":
    torch.manual_seed(0)
    height, width = 300, 200
    n_img = num_image_tokens(height, width)
    input_ids = torch.cat([torch.tensor([1, 5, 9]), torch.full((n_img,), IMAGE_TOKEN), torch.tensor([11, 12, 2])])
    embed = nn.Embedding(32, HIDDEN)
    tower = TinyVisionTower()
    with torch.no_grad():
        image_embeds = tower(torch.randn(3, height, width))
        merged = merge_image_features(embed(input_ids), input_ids, image_embeds)
    print("merged sequence:", tuple(merged.shape))
