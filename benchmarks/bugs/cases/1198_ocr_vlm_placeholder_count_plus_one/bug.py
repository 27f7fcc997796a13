import torch
import torch.nn as nn
from jaxtyping import Float, Int, Bool

IMG_START, IMG_PAD, IMG_END = 90, 91, 92
PATCH, MERGE = 14, 2


def num_image_tokens(height: int, width: int) -> int:
    return (height // PATCH) * (width // PATCH) // (MERGE * MERGE)


def render_chat(prompt_ids, image_hw):
    n = num_image_tokens(*image_hw)
    image_part = [IMG_START, IMG_PAD] + [IMG_PAD] * n + [IMG_END]
    return torch.tensor(image_part + prompt_ids)


class PatchMerger(nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.proj = nn.Linear(3 * PATCH * PATCH * MERGE * MERGE, dim)

    def forward(self, pixels: Float[torch.Tensor, "3 h w"]) -> Float[torch.Tensor, "n d"]:
        c, h, w = pixels.shape
        s = PATCH * MERGE
        blocks = pixels[:, : h // s * s, : w // s * s].unfold(1, s, s).unfold(2, s, s)
        blocks = blocks.permute(1, 2, 0, 3, 4).reshape(-1, c * s * s)
        return self.proj(blocks)


def merge_multimodal_embeddings(
    inputs_embeds: Float[torch.Tensor, "l d"],
    is_image: Bool[torch.Tensor, "l"],
    image_embeds: Float[torch.Tensor, "n d"],
) -> Float[torch.Tensor, "l d"]:
    inputs_embeds = inputs_embeds.clone()
    inputs_embeds[is_image] = image_embeds
    return inputs_embeds


def embed_request(embed: nn.Embedding, merger: PatchMerger, input_ids: Int[torch.Tensor, "l"], pixels):
    is_image = input_ids == IMG_PAD
    return merge_multimodal_embeddings(embed(input_ids), is_image, merger(pixels))


if __name__ == "__main__":
    torch.manual_seed(0)
    embed, merger = nn.Embedding(100, 16), PatchMerger(16)
    pixels = torch.randn(3, 56, 84)
    input_ids = render_chat([5, 6, 7, 8], image_hw=pixels.shape[1:])
    out = embed_request(embed, merger, input_ids, pixels)
    print(out.shape)
