import torch
import torch.nn as nn
from jaxtyping import Bool, Float, Int
from torch import Tensor

BOI, IMAGE, EOI = 60, 61, 62
TOKENS_PER_IMAGE = 8


def expand_image_tags(text_ids: list[int], num_images: int) -> Int[Tensor, "seq"]:
    ids = []
    for _ in range(num_images):
        ids += [BOI] + [IMAGE] * TOKENS_PER_IMAGE + [EOI]
    return torch.tensor(ids + text_ids)


def multimodal_mask(input_ids: Int[Tensor, "seq"]) -> Bool[Tensor, "seq"]:
    # only the <image> slots receive vision features; <boi>/<eoi> keep their text embeddings
    return input_ids == IMAGE


class VisionTower(nn.Module):
    def __init__(self, patch_dim: int, hidden: int):
        super().__init__()
        self.proj = nn.Linear(patch_dim, hidden)

    def forward(self, patches: Float[Tensor, "n_img tokens patch_dim"]) -> Float[Tensor, "n_img tokens hidden"]:
        return self.proj(patches)


def merge_multimodal_embeddings(
    inputs_embeds: Float[Tensor, "seq hidden"],
    is_multimodal: Bool[Tensor, "seq"],
    image_embeds: Float[Tensor, "n_img tokens hidden"],
) -> Float[Tensor, "seq hidden"]:
    flat = image_embeds.reshape(-1, image_embeds.size(-1))
    positions = is_multimodal.nonzero().squeeze(-1)
    index = positions.unsqueeze(-1).expand(-1, inputs_embeds.size(-1))
    return inputs_embeds.scatter(0, index, flat)


if __name__ == "__main__":
    torch.manual_seed(0)
    hidden, patch_dim = 32, 12
    embed = nn.Embedding(100, hidden)
    tower = VisionTower(patch_dim, hidden)
    input_ids = expand_image_tags([3, 14, 15, 9, 26], num_images=2)
    patches = torch.randn(2, TOKENS_PER_IMAGE, patch_dim)
    with torch.no_grad():
        feats = tower(patches)
        merged = merge_multimodal_embeddings(embed(input_ids), multimodal_mask(input_ids), feats)
        flat = feats.reshape(-1, hidden)
        k = 0
        for pos, tok in enumerate(input_ids.tolist()):
            if tok == IMAGE:
                ref = flat[k]
                k += 1
            else:
                ref = embed.weight[tok]
            for d in range(hidden):
                assert abs(float(merged[pos, d]) - float(ref[d])) < 1e-6
        assert k == flat.size(0)
    print("ok")
