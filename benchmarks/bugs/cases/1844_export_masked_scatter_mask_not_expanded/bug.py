import torch
import torch.nn as nn
from jaxtyping import Bool, Float, Int
from torch import Tensor

IMAGE_TOKEN_ID = 7


def masked_scatter_for_export(
    inputs_embeds: Float[Tensor, "batch seq hidden"],
    mask: Bool[Tensor, "batch seq 1"],
    source: Float[Tensor, "n_image_tokens hidden"],
) -> Float[Tensor, "batch seq hidden"]:
    """masked_scatter written with nonzero + index_put so that it lowers to ScatterND."""
    positions = mask.nonzero(as_tuple=True)
    values = source.reshape(-1)[: positions[0].numel()].to(inputs_embeds.dtype)
    return inputs_embeds.index_put(positions, values)


class ToyVLM(nn.Module):
    def __init__(self, vocab: int, hidden: int, patch_dim: int):
        super().__init__()
        self.embed_tokens = nn.Embedding(vocab, hidden)
        self.projector = nn.Linear(patch_dim, hidden)

    def merge(
        self, input_ids: Int[Tensor, "batch seq"], patches: Float[Tensor, "n_image_tokens patch"]
    ) -> Float[Tensor, "batch seq hidden"]:
        inputs_embeds = self.embed_tokens(input_ids)
        image_features = self.projector(patches)
        special_image_mask = (input_ids == IMAGE_TOKEN_ID).unsqueeze(-1)
        return masked_scatter_for_export(inputs_embeds, special_image_mask, image_features)


if __name__ == "__main__":
    torch.manual_seed(0)
    model = ToyVLM(vocab=32, hidden=6, patch_dim=10)
    input_ids = torch.tensor([[1, 7, 7, 7, 4, 5], [7, 7, 2, 3, 7, 9]])
    patches = torch.randn(int((input_ids == IMAGE_TOKEN_ID).sum()), 10)
    with torch.no_grad():
        merged = model.merge(input_ids, patches)
        image_rows = merged[input_ids == IMAGE_TOKEN_ID]
        print("image rows:", image_rows)
        print("max |row - projected patch|:", (image_rows - model.projector(patches)).abs().max().item())
