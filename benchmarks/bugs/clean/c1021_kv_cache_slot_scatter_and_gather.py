import torch
from jaxtyping import Float, Int


def write_kv(cache: Float[torch.Tensor, "slots heads dim"], slots: Int[torch.Tensor, "tokens"],
             new_kv: Float[torch.Tensor, "tokens heads dim"]) -> None:
    # slot ids are unique per step, so an overwriting index_copy_ is the intended semantics
    cache.index_copy_(0, slots, new_kv)


def read_kv(cache: Float[torch.Tensor, "slots heads dim"],
            block_table: Int[torch.Tensor, "seqs blocks"], block_size: int) -> Float[torch.Tensor, "seqs ctx heads dim"]:
    offsets = torch.arange(block_size)
    slot_ids = (block_table.unsqueeze(-1) * block_size + offsets).flatten(1)      # [seqs, ctx]
    return cache.index_select(0, slot_ids.flatten()).view(*slot_ids.shape, *cache.shape[1:])


def token_counts(slots: Int[torch.Tensor, "tokens"], num_blocks: int, block_size: int) -> Int[torch.Tensor, "blocks"]:
    blocks = torch.div(slots, block_size, rounding_mode="floor")
    return torch.zeros(num_blocks, dtype=torch.long).scatter_add_(0, blocks, torch.ones_like(blocks))


if __name__ == "__main__":
    torch.manual_seed(0)
    num_blocks, block_size, heads, dim = 6, 4, 2, 3
    cache = torch.zeros(num_blocks * block_size, heads, dim)
    slots = torch.randperm(num_blocks * block_size)[:10]
    kv = torch.randn(10, heads, dim)
    write_kv(cache, slots, kv)
    for t in range(10):
        assert torch.equal(cache[int(slots[t])], kv[t])
    table = torch.tensor([[0, 2], [5, 1]])
    ctx = read_kv(cache, table, block_size)
    for s in range(2):
        for j in range(2 * block_size):
            slot = int(table[s, j // block_size]) * block_size + j % block_size
            assert torch.equal(ctx[s, j], cache[slot])
    counts = token_counts(slots, num_blocks, block_size)
    ref = [0] * num_blocks
    for t in range(10):
        ref[int(slots[t]) // block_size] += 1
    assert counts.tolist() == ref
    print("ok")
