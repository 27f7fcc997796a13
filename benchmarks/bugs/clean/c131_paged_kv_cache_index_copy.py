import torch
from jaxtyping import Float, Int
from torch import Tensor


class PagedKVCache:
    """Key/value cache stored in fixed-size blocks; each sequence owns a list of blocks (its block table)."""

    def __init__(self, num_blocks: int, block_size: int, num_heads: int, head_dim: int):
        self.block_size = block_size
        self.k = torch.zeros(num_blocks * block_size, num_heads, head_dim)
        self.v = torch.zeros(num_blocks * block_size, num_heads, head_dim)

    def slots(self, block_table: Int[Tensor, "blocks"], positions: Int[Tensor, "tokens"]) -> Int[Tensor, "tokens"]:
        block = block_table.index_select(0, torch.div(positions, self.block_size, rounding_mode="floor"))
        return block * self.block_size + positions % self.block_size

    def write(
        self,
        slot_ids: Int[Tensor, "tokens"],
        k: Float[Tensor, "tokens heads head_dim"],
        v: Float[Tensor, "tokens heads head_dim"],
    ) -> None:
        # every new token owns its own slot, so the slot ids are unique
        self.k.index_copy_(0, slot_ids, k)
        self.v.index_copy_(0, slot_ids, v)

    def read(self, slot_ids: Int[Tensor, "ctx"]) -> tuple[Float[Tensor, "ctx heads head_dim"], Float[Tensor, "ctx heads head_dim"]]:
        return self.k.index_select(0, slot_ids), self.v.index_select(0, slot_ids)


def decode_attention(
    q: Float[Tensor, "heads head_dim"], k: Float[Tensor, "ctx heads head_dim"], v: Float[Tensor, "ctx heads head_dim"]
) -> Float[Tensor, "heads head_dim"]:
    scores = torch.einsum("hd,chd->hc", q, k) / q.shape[-1] ** 0.5
    return torch.einsum("hc,chd->hd", scores.softmax(-1), v)


if __name__ == "__main__":
    torch.manual_seed(0)
    cache = PagedKVCache(num_blocks=8, block_size=4, num_heads=2, head_dim=8)
    tables = {"a": torch.tensor([5, 1, 6]), "b": torch.tensor([0, 3])}
    lengths = {"a": 10, "b": 7}
    history = {}
    for name, n in lengths.items():
        positions = torch.arange(n)
        k, v = torch.randn(n, 2, 8), torch.randn(n, 2, 8)
        cache.write(cache.slots(tables[name], positions), k, v)
        history[name] = (k, v)

    for name, n in lengths.items():
        slot_ids = cache.slots(tables[name], torch.arange(n))
        k, v = cache.read(slot_ids)
        ref_k, ref_v = history[name]
        for t in range(n):
            block = int(tables[name][t // 4])
            assert torch.equal(cache.k[block * 4 + t % 4], ref_k[t])
        assert torch.equal(k, ref_k) and torch.equal(v, ref_v)
        q = torch.randn(2, 8)
        out = decode_attention(q, k, v)
        for h in range(2):
            w = torch.softmax(torch.stack([q[h] @ ref_k[t, h] for t in range(n)]) / 8 ** 0.5, 0)
            assert torch.allclose(out[h], sum(w[t] * ref_v[t, h] for t in range(n)), atol=1e-5)
    print("ok")
