import torch
import torch.nn as nn
from jaxtyping import Float, Int

IMAGE_TOKEN_ID = 3
PATCH = 14
MERGE = 2


class VisionTower(nn.Module):
    def __init__(self, dim: int):
        super().__init__()
        self.proj = nn.Conv2d(3, dim, kernel_size=PATCH * MERGE, stride=PATCH * MERGE)

    def forward(self, pixels: Float[torch.Tensor, "3 height width"]) -> Float[torch.Tensor, "patches dim"]:
        return self.proj(pixels[None]).flatten(2)[0].T


def build_prompt(text_ids: list[int], height: int, width: int) -> Int[torch.Tensor, " seq"]:
    n_image_tokens = (height // (PATCH * MERGE)) * (width // (PATCH * MERGE))
    ids = [1] + [IMAGE_TOKEN_ID] * n_image_tokens + text_ids + [2]
    return torch.tensor(ids)


def merge_image_features(
    inputs_embeds: Float[torch.Tensor, "seq dim"],
    input_ids: Int[torch.Tensor, " seq"],
    image_feats: Float[torch.Tensor, "patches dim"],
) -> Float[torch.Tensor, "seq dim"]:
    positions = (input_ids == IMAGE_TOKEN_ID).nonzero().squeeze(-1)
    index = positions[:, None].expand(-1, inputs_embeds.shape[-1])
    return inputs_embeds.scatter(0, index, image_feats)


class TinyVLM(nn.Module):
    def __init__(self, vocab: int = 64, dim: int = 32):
        super().__init__()
        self.embed = nn.Embedding(vocab, dim)
        self.vision = VisionTower(dim)
        self.lm_head = nn.Linear(dim, vocab)

    def forward(self, input_ids: Int[torch.Tensor, " seq"], pixels: Float[torch.Tensor, "3 height width"]):
        embeds = self.embed(input_ids)
        embeds = merge_image_features(embeds, input_ids, self.vision(pixels))
        return self.lm_head(embeds)


if __name__ == "__main__":
    torch.manual_seed(0)
    model = TinyVLM()
    image = torch.rand(3, 120, 120)
    ids = build_prompt([10, 11, 12, 13], height=120, width=120)
    embeds = model.embed(ids)
    feats = model.vision(image)
    merged = merge_image_features(embeds, ids, feats)
    k = 0
    for t in range(ids.numel()):
        if ids[t].item() == IMAGE_TOKEN_ID:
            assert torch.equal(merged[t], feats[k])
            k += 1
        else:
            assert torch.equal(merged[t], embeds[t])
    assert k == feats.shape[0]
    assert model(ids, image).shape == (ids.numel(), 64)
    print("ok")
