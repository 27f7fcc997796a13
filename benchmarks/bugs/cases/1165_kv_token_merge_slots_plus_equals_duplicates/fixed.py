import torch
from jaxtyping import Float, Int
from torch import Tensor


class MergedKVCache:
    """Fixed-size KV cache; evicted tokens are averaged into the slot they are assigned to."""

    def __init__(self, num_slots: int, num_heads: int, head_dim: int):
        self.values: Float[Tensor, "slots heads dim"] = torch.zeros(num_slots, num_heads, head_dim)
        self.weight: Float[Tensor, "slots"] = torch.zeros(num_slots)

    def merge(
        self,
        slots: Int[Tensor, "tokens"],
        values: Float[Tensor, "tokens heads dim"],
    ) -> None:
        self.values.index_put_((slots,), values, accumulate=True)
        self.weight.index_add_(0, slots, torch.ones_like(slots, dtype=self.weight.dtype))

    def read(self) -> Float[Tensor, "slots heads dim"]:
        return self.values / self.weight.clamp(min=1.0)[:, None, None]


def assign_slots(keys: Float[Tensor, "tokens heads dim"], centroids: Float[Tensor, "slots heads dim"]) -> Int[Tensor, "tokens"]:
    sim = torch.einsum("thd,shd->ts", keys, centroids)
    return sim.argmax(dim=-1)


if __name__ == "__main__":
    torch.manual_seed(0)
    cache = MergedKVCache(num_slots=4, num_heads=2, head_dim=8)
    keys = torch.randn(10, 2, 8)
    vals = torch.randn(10, 2, 8)
    slots = assign_slots(keys, torch.randn(4, 2, 8))
    cache.merge(slots, vals)
    out = cache.read()
    for s in range(4):
        members = [i for i in range(10) if int(slots[i]) == s]
        assert cache.weight[s].item() == len(members)
        if members:
            ref = sum(vals[i] for i in members) / len(members)
            assert torch.allclose(out[s], ref, atol=1e-5)
    print("ok")
