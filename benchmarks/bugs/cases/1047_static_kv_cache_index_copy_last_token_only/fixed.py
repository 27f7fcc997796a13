import torch
import torch.nn as nn
from jaxtyping import Float, Int


class StaticKVCache:
    def __init__(self, batch: int, heads: int, max_len: int, head_dim: int):
        self.k = torch.zeros(batch, heads, max_len, head_dim)
        self.v = torch.zeros(batch, heads, max_len, head_dim)

    def update(self, positions: Int[torch.Tensor, "seq"],
               k: Float[torch.Tensor, "batch heads seq head_dim"],
               v: Float[torch.Tensor, "batch heads seq head_dim"]) -> None:
        self.k.index_copy_(2, positions, k)
        self.v.index_copy_(2, positions, v)


class KVProjection(nn.Module):
    def __init__(self, d_model: int, heads: int):
        super().__init__()
        self.heads = heads
        self.kv = nn.Linear(d_model, 2 * d_model)

    def forward(self, h: Float[torch.Tensor, "batch seq d_model"], cache: StaticKVCache,
                start: int) -> None:
        b, t, d = h.shape
        positions = torch.arange(start, start + t)
        k, v = self.kv(h).chunk(2, dim=-1)
        k = k.view(b, -1, self.heads, d // self.heads).transpose(1, 2)
        v = v.view(b, -1, self.heads, d // self.heads).transpose(1, 2)
        cache.update(positions, k, v)


if __name__ == "__main__":
    torch.manual_seed(0)
    proj = KVProjection(d_model=8, heads=2)
    cache = StaticKVCache(batch=2, heads=2, max_len=10, head_dim=4)
    prompt = torch.randn(2, 5, 8)
    proj(prompt, cache, start=0)
    with torch.no_grad():
        full = proj.kv(prompt)
    for b in range(2):
        for t in range(10):
            for hh in range(2):
                if t < 5:
                    assert torch.allclose(cache.k[b, hh, t], full[b, t, hh * 4:(hh + 1) * 4])
                    assert torch.allclose(cache.v[b, hh, t], full[b, t, 8 + hh * 4:8 + (hh + 1) * 4])
                else:
                    assert not cache.k[b, hh, t].any()
    print("ok")
