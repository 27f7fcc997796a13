import torch
import torch.nn as nn
from jaxtyping import Bool, Float, Int
from torch import Tensor


class NaViTVisionEncoder(nn.Module):
    def __init__(self, patch_dim: int, hidden: int, max_patches: int):
        super().__init__()
        self.patch_embedding = nn.Linear(patch_dim, hidden)
        self.position_embedding = nn.Embedding(max_patches, hidden)
        self.layer = nn.TransformerEncoderLayer(hidden, 4, 2 * hidden, batch_first=True, dropout=0.0)

    def forward(
        self, pixel_values: Float[Tensor, "b l p"], patch_attention_mask: Bool[Tensor, "b 1 l"]
    ) -> Float[Tensor, "b l d"]:
        valid: Bool[Tensor, "b l"] = patch_attention_mask.flatten(1)
        positions: Int[Tensor, "b l"] = (valid.cumsum(dim=1) - 1).clamp(min=0)
        x = self.patch_embedding(pixel_values) + self.position_embedding(positions)
        return self.layer(x, src_key_padding_mask=~valid)


class Resampler(nn.Module):
    def __init__(self, hidden: int, num_queries: int):
        super().__init__()
        self.query = nn.Parameter(torch.randn(num_queries, hidden) * 0.1)
        self.attn = nn.MultiheadAttention(hidden, 4, batch_first=True)

    def forward(self, x: Float[Tensor, "b l d"], key_padding_mask: Bool[Tensor, "b l"]) -> Float[Tensor, "b q d"]:
        q = self.query.unsqueeze(0).expand(x.shape[0], -1, -1)
        return self.attn(q, x, x, key_padding_mask=key_padding_mask)[0]


class MiniCPMVVision(nn.Module):
    def __init__(self, patch_dim: int, hidden: int, max_patches: int, num_queries: int):
        super().__init__()
        self.vpm = NaViTVisionEncoder(patch_dim, hidden, max_patches)
        self.resampler = Resampler(hidden, num_queries)

    def get_vision_embedding(
        self, all_pixel_values: list[Float[Tensor, "l p"]], tgt_sizes: Int[Tensor, "b 2"]
    ) -> Float[Tensor, "b q d"]:
        B = len(all_pixel_values)
        max_patches = int(torch.max(tgt_sizes[:, 0] * tgt_sizes[:, 1]))
        padded: Float[Tensor, "b l p"] = torch.nn.utils.rnn.pad_sequence(all_pixel_values, batch_first=True, padding_value=0.0)
        patch_attn_mask: Bool[Tensor, "b 1 l"] = torch.zeros((B, 1, max_patches), dtype=torch.bool)
        for i in range(B):
            patch_attn_mask[i, 0, : tgt_sizes[i][0] * tgt_sizes[i][1]] = True
        vision_embedding = self.vpm(padded, patch_attention_mask=patch_attn_mask)
        return self.resampler(vision_embedding, key_padding_mask=~patch_attn_mask.flatten(1))


if __name__ == "__main__":
    torch.manual_seed(0)
    model = MiniCPMVVision(patch_dim=12, hidden=16, max_patches=64, num_queries=4).eval()
    tgt_sizes = torch.tensor([[6, 8], [3, 5]])
    slices = [torch.randn(int(h * w), 12) for h, w in tgt_sizes.tolist()]
    seen = []
    model.vpm.register_forward_hook(lambda m, inp, kw, out: seen.append(kw["patch_attention_mask"].clone()), with_kwargs=True)
    with torch.no_grad():
        batched = model.get_vision_embedding(slices, tgt_sizes)
        mask = seen[0]
        for i, (h, w) in enumerate(tgt_sizes.tolist()):
            for j in range(mask.shape[-1]):
                assert bool(mask[i, 0, j]) == (j < h * w)
        for i in range(len(slices)):
            alone = model.get_vision_embedding([slices[i]], tgt_sizes[i : i + 1])
            assert torch.allclose(batched[i], alone[0], atol=1e-5)
    print("ok")
