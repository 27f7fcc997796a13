import torch
import torch.nn as nn
from jaxtyping import Float, Int
from torch import Tensor


class AttnBlock(nn.Module):
    def __init__(self, dim: int, heads: int):
        super().__init__()
        self.heads = heads
        self.qkv = nn.Linear(dim, 3 * dim)
        self.proj = nn.Linear(dim, dim)

    def forward(
        self, x: Float[Tensor, "b n1 d"]
    ) -> tuple[Float[Tensor, "b n1 d"], Float[Tensor, "b h n1 n1"]]:
        b, n1, d = x.shape
        q, k, v = self.qkv(x).reshape(b, n1, 3, self.heads, d // self.heads).permute(2, 0, 3, 1, 4)
        attn = (q @ k.transpose(-2, -1) * (d // self.heads) ** -0.5).softmax(dim=-1)
        out = (attn @ v).transpose(1, 2).reshape(b, n1, d)
        return x + self.proj(out), attn


class SalientPatchPooling(nn.Module):
    """Keeps the `keep` patch tokens the [CLS] token attends to most (token 0 is [CLS])."""

    def __init__(self, dim: int, heads: int, keep: int):
        super().__init__()
        self.block = AttnBlock(dim, heads)
        self.keep = keep

    def select(
        self, tokens: Float[Tensor, "b n1 d"], attn: Float[Tensor, "b h n1 n1"]
    ) -> tuple[Int[Tensor, "b k"], Float[Tensor, "b k d"]]:
        cls_to_patch: Float[Tensor, "b n"] = attn[:, :, 0, 1:].mean(dim=1)
        patch_idx: Int[Tensor, "b k"] = cls_to_patch.topk(self.keep, dim=-1).indices
        patch_tokens: Float[Tensor, "b n d"] = tokens[:, 1:]
        picked = patch_tokens.gather(1, patch_idx.unsqueeze(-1).expand(-1, -1, tokens.size(-1)))
        return patch_idx, picked

    def forward(self, tokens: Float[Tensor, "b n1 d"]) -> tuple[Int[Tensor, "b k"], Float[Tensor, "b k d"]]:
        tokens, attn = self.block(tokens)
        return self.select(tokens, attn)


if __name__ == "__main__":
    torch.manual_seed(0)
    pool = SalientPatchPooling(dim=32, heads=4, keep=5)
    tokens = torch.randn(3, 1 + 16, 32)
    with torch.no_grad():
        idx, picked = pool(tokens)
        out, _ = pool.block(tokens)
    ref = torch.stack([torch.stack([out[b, 1 + i] for i in idx[b].tolist()]) for b in range(3)])
    assert torch.allclose(picked, ref)
    print("ok")
