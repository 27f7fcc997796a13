import torch
import torch.nn as nn
from jaxtyping import Float, Int
from torch import Tensor

IMAGE_PATCH_ID = 7


class ImageProjector(nn.Module):
    def __init__(self, vision_dim: int, d_model: int):
        super().__init__()
        self.proj = nn.Sequential(nn.Linear(vision_dim, d_model), nn.SiLU(), nn.Linear(d_model, d_model))

    def forward(self, patches: Float[Tensor, "crops patches vision"]) -> Float[Tensor, "crops patches d_model"]:
        return self.proj(patches)


def merge_multimodal_embeddings(
    inputs_embeds: Float[Tensor, "seq d_model"],
    input_ids: Int[Tensor, "seq"],
    image_features: Float[Tensor, "crops patches d_model"],
    image_input_idx: Int[Tensor, "crops patches"],
) -> Float[Tensor, "seq d_model"]:
    """Write projected crop patches into the <im_patch> placeholder slots of the prompt.

    image_input_idx[c, p] is the rank of the placeholder token that crop patch p of crop c fills,
    or -1 for patches that are not used (overlap margins between neighbouring crops).
    """
    feat_is_patch = image_input_idx >= 0
    patch_features = image_features.new_zeros(int(feat_is_patch.sum()), image_features.shape[-1])
    patch_features[image_input_idx[feat_is_patch]] = image_features[feat_is_patch]
    is_image_token = (input_ids == IMAGE_PATCH_ID).unsqueeze(-1).expand_as(inputs_embeds)
    return inputs_embeds.masked_scatter(is_image_token, patch_features)


def tiled_patch_layout(rows: int, tile_cols: int, num_tiles: int) -> Int[Tensor, "crops patches"]:
    """Tiles overlap by one patch column; the overlapped column is taken from the left tile."""
    grid_cols = num_tiles * (tile_cols - 1) + 1
    idx = torch.full((num_tiles, rows * tile_cols), -1, dtype=torch.long)
    for tile in range(num_tiles):
        for r in range(rows):
            for c in range(tile_cols):
                if tile > 0 and c == 0:
                    continue
                grid_c = tile * (tile_cols - 1) + c
                idx[tile, r * tile_cols + c] = r * grid_cols + grid_c
    return idx


if __name__ == "__main__":
    torch.manual_seed(0)
    projector = ImageProjector(vision_dim=12, d_model=16)
    embed = nn.Embedding(32, 16)

    image_input_idx = tiled_patch_layout(rows=2, tile_cols=3, num_tiles=2)
    num_image_tokens = int((image_input_idx >= 0).sum())
    input_ids = torch.tensor([1, 4, 5] + [IMAGE_PATCH_ID] * num_image_tokens + [9, 2])
    crops = torch.randn(2, 6, 12)

    with torch.no_grad():
        feats = projector(crops)
        merged = merge_multimodal_embeddings(embed(input_ids), input_ids, feats, image_input_idx)

        slots = (input_ids == IMAGE_PATCH_ID).nonzero().squeeze(-1).tolist()
        expected = embed(input_ids).clone()
        for c in range(image_input_idx.shape[0]):
            for p in range(image_input_idx.shape[1]):
                rank = image_input_idx[c, p].item()
                if rank >= 0:
                    expected[slots[rank]] = feats[c, p]
    assert torch.allclose(merged, expected)
    print("ok")
