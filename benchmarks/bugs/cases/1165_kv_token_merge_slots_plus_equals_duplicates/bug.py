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
        self.values[slots] += values
        self.weight[slots] += 1.0

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
    print("tokens per slot:", torch.bincount(slots, minlength=4).tolist())
    print("merge weight:   ", cache.weight.tolist())
    print("slot means[0,0,:3]:", cache.read()[0, 0, :3].tolist())
