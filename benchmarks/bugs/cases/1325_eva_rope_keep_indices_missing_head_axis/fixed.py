import math

import torch
import torch.nn as nn
from jaxtyping import Float, Int
from torch import Tensor


def rot(x: Float[Tensor, "... d"]) -> Float[Tensor, "... d"]:
    return torch.stack([-x[..., 1::2], x[..., ::2]], dim=-1).reshape(x.shape)


def apply_rot_embed_cat(x: Float[Tensor, "b h n d"], emb: Float[Tensor, "... n two_d"]) -> Float[Tensor, "b h n d"]:
    sin_emb, cos_emb = emb.tensor_split(2, dim=-1)
    return x * cos_emb + rot(x) * sin_emb


def build_rope(num_tokens: int, head_dim: int) -> Float[Tensor, "n two_d"]:
    freqs = 1.0 / (100.0 ** (torch.arange(0, head_dim, 2).float() / head_dim))
    angles = torch.arange(num_tokens).float()[:, None] * freqs[None, :]
    angles = angles.repeat_interleave(2, dim=-1)
    return torch.cat([angles.sin(), angles.cos()], dim=-1)


def patch_dropout(x: Float[Tensor, "b n c"], keep: int) -> tuple[Float[Tensor, "b k c"], Int[Tensor, "b k"]]:
    keep_indices = torch.argsort(torch.randn(x.shape[0], x.shape[1]), dim=-1)[:, :keep]
    x = x.gather(1, keep_indices.unsqueeze(-1).expand(-1, -1, x.shape[-1]))
    return x, keep_indices


def apply_keep_indices_nlc(x: Float[Tensor, "b k c"], pos_embed: Float[Tensor, "n two_d"],
                           keep_indices: Int[Tensor, "b k"]) -> Float[Tensor, "b k two_d"]:
    pos_embed = pos_embed.unsqueeze(0).expand(x.shape[0], -1, -1)
    return pos_embed.gather(1, keep_indices.unsqueeze(-1).expand(-1, -1, pos_embed.shape[-1]))


class RopeAttention(nn.Module):
    def __init__(self, dim: int, num_heads: int):
        super().__init__()
        self.num_heads = num_heads
        self.head_dim = dim // num_heads
        self.qkv = nn.Linear(dim, 3 * dim)
        self.proj = nn.Linear(dim, dim)

    def forward(self, x: Float[Tensor, "b n c"], rope: Float[Tensor, "... n two_d"]) -> Float[Tensor, "b n c"]:
        B, N, C = x.shape
        q, k, v = self.qkv(x).reshape(B, N, 3, self.num_heads, self.head_dim).permute(2, 0, 3, 1, 4)
        q = apply_rot_embed_cat(q, rope)
        k = apply_rot_embed_cat(k, rope)
        attn = (q @ k.transpose(-2, -1) / math.sqrt(self.head_dim)).softmax(dim=-1)
        return self.proj((attn @ v).transpose(1, 2).reshape(B, N, C))


class TinyEva(nn.Module):
    def __init__(self, dim: int = 32, num_heads: int = 4, num_patches: int = 9, patch_keep: int = 6):
        super().__init__()
        self.attn = RopeAttention(dim, num_heads)
        self.patch_keep = patch_keep
        self.register_buffer("rope", build_rope(num_patches, dim // num_heads))

    def forward(self, x: Float[Tensor, "b n c"]) -> Float[Tensor, "b k c"]:
        rot_pos_embed = self.rope
        if self.training:
            x, keep_indices = patch_dropout(x, self.patch_keep)
            rot_pos_embed = apply_keep_indices_nlc(x, rot_pos_embed, keep_indices).unsqueeze(1)
        return x + self.attn(x, rot_pos_embed)


if __name__ == "__main__":
    torch.manual_seed(0)
    model = TinyEva().train()
    tokens = torch.randn(2, 9, 32)
    torch.manual_seed(1)
    out = model(tokens)
    torch.manual_seed(1)
    keep = torch.argsort(torch.randn(2, 9), dim=-1)[:, :6]
    with torch.no_grad():
        for b in range(2):
            rows = [int(i) for i in keep[b]]
            xb = torch.stack([tokens[b, i] for i in rows])[None]
            rope_b = torch.stack([model.rope[i] for i in rows])
            ref_b = xb + model.attn(xb, rope_b)
            assert torch.allclose(out[b], ref_b[0], atol=1e-5)
    print("ok")
