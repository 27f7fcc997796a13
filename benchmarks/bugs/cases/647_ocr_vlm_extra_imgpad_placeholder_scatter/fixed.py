import torch
import torch.nn as nn
from jaxtyping import Float, Int
from torch import Tensor

IMG_START, IMG_PAD, IMG_END = 1001, 1002, 1003
PROMPT = ["<|img|>", "<|endofimg|>", "Extract", "the", "text", "."]
WORD_IDS = {"<|img|>": IMG_START, "<|imgpad|>": IMG_PAD, "<|endofimg|>": IMG_END,
            "Extract": 11, "the": 12, "text": 13, ".": 14}


def expand_image_tokens(prompt: list[str], num_patches: int) -> Int[Tensor, "seq"]:
    ids = []
    for tok in prompt:
        if tok == "<|img|>":
            ids += [IMG_START] + [IMG_PAD] * num_patches
        else:
            ids.append(WORD_IDS[tok])
    return torch.tensor(ids)


class VisionTower(nn.Module):
    def __init__(self, patch_dim: int = 48, hidden: int = 64):
        super().__init__()
        self.proj = nn.Linear(patch_dim, hidden)

    def forward(self, patches: Float[Tensor, "num_patches patch_dim"]) -> Float[Tensor, "num_patches hidden"]:
        return self.proj(patches)


def merge_image_embeds(
    input_ids: Int[Tensor, "seq"],
    inputs_embeds: Float[Tensor, "seq hidden"],
    image_embeds: Float[Tensor, "num_patches hidden"],
) -> Float[Tensor, "seq hidden"]:
    positions = (input_ids == IMG_PAD).nonzero().squeeze(-1)
    index = positions.unsqueeze(-1).expand(-1, inputs_embeds.size(-1))
    return inputs_embeds.scatter(0, index, image_embeds)


if __name__ == "__main__":
    torch.manual_seed(0)
    patches = torch.randn(462, 48)
    input_ids = expand_image_tokens(PROMPT, num_patches=patches.size(0))
    embed = nn.Embedding(1100, 64)
    with torch.no_grad():
        text_embeds = embed(input_ids)
        image_embeds = VisionTower()(patches)
        merged = merge_image_embeds(input_ids, text_embeds, image_embeds)
    k = 0
    for i, tok in enumerate(input_ids.tolist()):
        expected = image_embeds[k] if tok == IMG_PAD else text_embeds[i]
        k += tok == IMG_PAD
        assert torch.equal(merged[i], expected)
    assert k == image_embeds.size(0)
    print("ok")
