import torch
import torch.nn as nn
from jaxtyping import Bool, Float, Int
from torch import Tensor

IMAGE_TOKEN_ID = 151655
VISION_START_ID = 151652
VISION_END_ID = 151653


class VisualTokenPruner(nn.Module):
    """Drops the least-attended visual tokens of a VLM prompt before the language model runs."""

    def __init__(self, dim: int, keep_ratio: float):
        super().__init__()
        self.keep_ratio = keep_ratio
        self.score = nn.Linear(dim, 1)

    def select(self, image_embeds: Float[Tensor, "n_img d"]) -> Bool[Tensor, "n_img"]:
        scores = self.score(image_embeds).squeeze(-1)
        n_keep = max(1, int(image_embeds.shape[0] * self.keep_ratio))
        keep_idx = scores.topk(n_keep).indices
        select_mask = torch.zeros(image_embeds.shape[0], dtype=torch.bool)
        select_mask[keep_idx] = True
        return select_mask

    def forward(
        self,
        input_ids: Int[Tensor, "1 s"],
        inputs_embeds: Float[Tensor, "1 s d"],
        attention_mask: Int[Tensor, "1 s"],
    ) -> tuple[Int[Tensor, "1 s2"], Float[Tensor, "1 s2 d"], Int[Tensor, "1 s2"]]:
        img_mask: Bool[Tensor, "s"] = input_ids[0] == IMAGE_TOKEN_ID
        img_positions: Int[Tensor, "n_img"] = img_mask.nonzero().squeeze(-1)
        first, last = img_positions[0].item(), img_positions[-1].item()
        select_mask: Bool[Tensor, "n_img"] = self.select(inputs_embeds[0, img_positions])

        drop_mask: Bool[Tensor, "s"] = torch.zeros_like(img_mask)
        drop_mask[first : last + 1] = ~select_mask
        keep: Bool[Tensor, "s"] = ~drop_mask
        return input_ids[:, keep], inputs_embeds[:, keep], attention_mask[:, keep]


def build_prompt(n_images: int, tokens_per_image: int, text_len: int) -> Int[Tensor, "1 s"]:
    ids = [1] * text_len
    for _ in range(n_images):
        ids += [VISION_START_ID] + [IMAGE_TOKEN_ID] * tokens_per_image + [VISION_END_ID]
    ids += [2] * text_len
    return torch.tensor([ids])


if __name__ == "__main__":
    torch.manual_seed(0)
    pruner = VisualTokenPruner(dim=32, keep_ratio=0.25)
    input_ids = build_prompt(n_images=2, tokens_per_image=8, text_len=5)
    inputs_embeds = torch.randn(1, input_ids.shape[1], 32)
    attention_mask = torch.ones_like(input_ids)
    with torch.no_grad():
        ids, embeds, mask = pruner(input_ids, inputs_embeds, attention_mask)
    print("sequence length", input_ids.shape[1], "->", ids.shape[1])
