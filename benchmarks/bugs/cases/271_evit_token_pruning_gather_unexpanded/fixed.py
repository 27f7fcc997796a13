import torch
import torch.nn as nn
from jaxtyping import Float, Int
from torch import Tensor


class Attention(nn.Module):
    def __init__(self, dim: int, num_heads: int):
        super().__init__()
        self.num_heads, self.scale = num_heads, (dim // num_heads) ** -0.5
        self.qkv = nn.Linear(dim, dim * 3)
        self.proj = nn.Linear(dim, dim)

    def forward(self, x: Float[Tensor, "batch tokens dim"]) -> tuple[Float[Tensor, "batch tokens dim"], Float[Tensor, "batch heads tokens tokens"]]:
        B, N, C = x.shape
        qkv = self.qkv(x).reshape(B, N, 3, self.num_heads, C // self.num_heads).permute(2, 0, 3, 1, 4)
        q, k, v = qkv[0], qkv[1], qkv[2]
        attn = ((q @ k.transpose(-2, -1)) * self.scale).softmax(dim=-1)
        return self.proj((attn @ v).transpose(1, 2).reshape(B, N, C)), attn


def keep_attentive_tokens(
    x: Float[Tensor, "batch tokens dim"], attn: Float[Tensor, "batch heads tokens tokens"], keep_rate: float
) -> tuple[Float[Tensor, "batch kept_plus_one dim"], Int[Tensor, "batch kept"]]:
    """Keep the CLS token and the image tokens the CLS token attends to most."""
    num_image_tokens = x.shape[1] - 1
    left_tokens = int(keep_rate * num_image_tokens)
    cls_attn = attn[:, :, 0, 1:].mean(dim=1)
    _, idx = torch.topk(cls_attn, left_tokens, dim=1, largest=True, sorted=True)
    x_others = x[:, 1:]
    x_kept = torch.gather(x_others, dim=1, index=idx.unsqueeze(-1).expand(-1, -1, x.shape[-1]))
    return torch.cat([x[:, :1], x_kept], dim=1), idx


class EViTBlock(nn.Module):
    def __init__(self, dim: int, num_heads: int, keep_rate: float):
        super().__init__()
        self.norm1, self.norm2 = nn.LayerNorm(dim), nn.LayerNorm(dim)
        self.attn = Attention(dim, num_heads)
        self.mlp = nn.Sequential(nn.Linear(dim, 2 * dim), nn.GELU(), nn.Linear(2 * dim, dim))
        self.keep_rate = keep_rate

    def forward(self, x: Float[Tensor, "batch tokens dim"]) -> Float[Tensor, "batch kept_plus_one dim"]:
        out, attn = self.attn(self.norm1(x))
        x = x + out
        x, _ = keep_attentive_tokens(x, attn, self.keep_rate)
        return x + self.mlp(self.norm2(x))


if __name__ == "__main__":
    torch.manual_seed(0)
    block = EViTBlock(dim=16, num_heads=4, keep_rate=0.5)
    tokens = torch.randn(2, 9, 16)
    with torch.no_grad():
        out = block(tokens)
    print("tokens after pruning:", tuple(out.shape))
    with torch.no_grad():
        x = tokens + block.attn(block.norm1(tokens))[0]
        attn = block.attn(block.norm1(tokens))[1]
        kept, idx = keep_attentive_tokens(x, attn, 0.5)
    for b in range(2):
        scores = [attn[b, :, 0, 1 + j].mean().item() for j in range(8)]
        order = sorted(range(8), key=lambda j: -scores[j])[:4]
        assert idx[b].tolist() == order
        assert torch.equal(kept[b, 0], x[b, 0])
        for r, j in enumerate(order):
            assert torch.equal(kept[b, 1 + r], x[b, 1 + j])
    print("ok")
