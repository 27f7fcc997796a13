import torch
from jaxtyping import Float, Int
from torch import Tensor


def slot_mapping(
    block_table: Int[Tensor, "batch blocks"], seq_lens: Int[Tensor, "batch"], block_size: int
) -> Int[Tensor, "tokens"]:
    max_len = int(seq_lens.max())
    pos = torch.arange(max_len).expand(len(seq_lens), max_len)
    blocks = block_table.gather(1, pos // block_size)
    slots = blocks * block_size + pos % block_size
    return slots[pos < seq_lens.unsqueeze(1)]  # only real tokens, in packed order


def write_to_cache(
    cache: Float[Tensor, "slots heads head_dim"],
    packed_kv: Float[Tensor, "tokens heads head_dim"],
    slots: Int[Tensor, "tokens"],
) -> Float[Tensor, "slots heads head_dim"]:
    return cache.index_copy_(0, slots, packed_kv)


if __name__ == "__main__":
    torch.manual_seed(0)
    num_blocks, block_size, heads, head_dim = 6, 4, 2, 8
    cache = torch.zeros(num_blocks * block_size, heads, head_dim)
    block_table = torch.tensor([[2, 5], [0, 3]])
    seq_lens = torch.tensor([6, 3])
    packed_kv = torch.randn(int(seq_lens.sum()), heads, head_dim)  # varlen prefill output
    write_to_cache(cache, packed_kv, slot_mapping(block_table, seq_lens, block_size))
    ref = torch.zeros_like(cache)
    t = 0
    for b in range(2):
        for p in range(int(seq_lens[b])):
            ref[int(block_table[b, p // block_size]) * block_size + p % block_size] = packed_kv[t]
            t += 1
    assert torch.equal(cache, ref)
    print("ok")
