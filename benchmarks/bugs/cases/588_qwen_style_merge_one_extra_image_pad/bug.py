import torch
import torch.nn as nn
from jaxtyping import Float, Int

IMAGE_PAD_ID = 0
VOCAB = {"<unk>": 0, "describe": 5, "the": 6, "chart": 7, "in": 8, "detail": 9, ".": 10}


def tokenize(text: str) -> list[int]:
    return [VOCAB.get(w, VOCAB["<unk>"]) for w in text.lower().replace(".", " .").split()]


def build_prompt(text: str, num_image_tokens: int) -> Int[torch.Tensor, "seq"]:
    return torch.tensor([IMAGE_PAD_ID] * num_image_tokens + tokenize(text))


def merge_image_features(
    inputs_embeds: Float[torch.Tensor, "batch seq hidden"],
    input_ids: Int[torch.Tensor, "batch seq"],
    image_features: Float[torch.Tensor, "num_patches hidden"],
) -> Float[torch.Tensor, "batch seq hidden"]:
    batch_idx, seq_idx = (input_ids == IMAGE_PAD_ID).nonzero(as_tuple=True)
    inputs_embeds = inputs_embeds.clone()
    inputs_embeds[batch_idx, seq_idx] = image_features
    return inputs_embeds


class VisionTower(nn.Module):
    def __init__(self, patch: int, hidden: int):
        super().__init__()
        self.patch = patch
        self.proj = nn.Linear(3 * patch * patch, hidden)

    def forward(self, image: Float[torch.Tensor, "3 h w"]) -> Float[torch.Tensor, "num_patches hidden"]:
        p = self.patch
        patches = image.unfold(1, p, p).unfold(2, p, p)               # [3, h/p, w/p, p, p]
        patches = patches.permute(1, 2, 0, 3, 4).reshape(-1, 3 * p * p)
        return self.proj(patches)


if __name__ == "__main__":
    torch.manual_seed(0)
    tower = VisionTower(patch=14, hidden=32)
    embed = nn.Embedding(64, 32)
    image = torch.rand(3, 56, 70)                                     # 4 x 5 patches
    feats = tower(image)
    text = "Describe the chart in detail please."
    input_ids = build_prompt(text, feats.shape[0]).unsqueeze(0)
    with torch.no_grad():
        merged = merge_image_features(embed(input_ids), input_ids, feats)
    print("merged", tuple(merged.shape))
