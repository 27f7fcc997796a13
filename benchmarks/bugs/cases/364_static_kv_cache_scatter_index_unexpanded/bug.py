import torch
from jaxtyping import Float, Int
from torch import Tensor


class StaticKVCache:
    def __init__(self, batch: int, max_len: int, heads: int, head_dim: int):
        self.k = torch.zeros(batch, max_len, heads * head_dim)
        self.v = torch.zeros(batch, max_len, heads * head_dim)
        self.heads, self.head_dim = heads, head_dim

    def update(
        self,
        positions: Int[Tensor, "batch new"],
        k_new: Float[Tensor, "batch new hidden"],
        v_new: Float[Tensor, "batch new hidden"],
    ) -> None:
        index = positions.unsqueeze(-1)
        self.k.scatter_(1, index, k_new)
        self.v.scatter_(1, index, v_new)

    def attend(self, q: Float[Tensor, "batch heads head_dim"], lengths: Int[Tensor, "batch"]) -> Float[Tensor, "batch hidden"]:
        B, L, _ = self.k.shape
        k = self.k.view(B, L, self.heads, self.head_dim)
        v = self.v.view(B, L, self.heads, self.head_dim)
        scores = torch.einsum("bhd,blhd->bhl", q, k) / self.head_dim ** 0.5
        valid = torch.arange(L)[None, :] < lengths[:, None]
        probs = scores.masked_fill(~valid[:, None, :], float("-inf")).softmax(dim=-1)
        return torch.einsum("bhl,blhd->bhd", probs, v).reshape(B, -1)


def decode_step(cache: StaticKVCache, lengths: Int[Tensor, "batch"], q: Float[Tensor, "batch heads head_dim"],
                k_t: Float[Tensor, "batch hidden"], v_t: Float[Tensor, "batch hidden"]) -> Float[Tensor, "batch hidden"]:
    cache.update(lengths[:, None], k_t[:, None], v_t[:, None])
    return cache.attend(q, lengths + 1)


if __name__ == "__main__":
    torch.manual_seed(0)
    B, L, H, D = 3, 10, 2, 4
    cache = StaticKVCache(B, L, H, D)
    prompt_lens = torch.tensor([4, 6, 3])
    keys, values = torch.randn(B, 6, H * D), torch.randn(B, 6, H * D)
    cache.update(torch.arange(6).expand(B, 6), keys, values)  # padded prefill; extra slots are masked out
    q, k_t, v_t = torch.randn(B, H, D), torch.randn(B, H * D), torch.randn(B, H * D)
    out = decode_step(cache, prompt_lens, q, k_t, v_t)
    ref = []
    for b in range(B):
        n = prompt_lens[b].item()
        K = torch.cat([keys[b, :n], k_t[b:b + 1]]).view(n + 1, H, D)
        V = torch.cat([values[b, :n], v_t[b:b + 1]]).view(n + 1, H, D)
        p = (torch.einsum("hd,lhd->hl", q[b], K) / D ** 0.5).softmax(-1)
        ref.append(torch.einsum("hl,lhd->hd", p, V).reshape(-1))
    print("max |attention - reference|:", (out - torch.stack(ref)).abs().max().item())
