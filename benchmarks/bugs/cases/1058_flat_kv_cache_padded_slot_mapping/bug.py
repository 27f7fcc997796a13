import torch
from jaxtyping import Float, Int
from torch import Tensor


def slot_mapping(
    block_table: Int[Tensor, "batch blocks"], seq_lens: Int[Tensor, "batch"], block_size: int
) -> Int[Tensor, "tokens"]:
    max_len = int(seq_lens.max())
    pos = torch.arange(max_len).expand(len(seq_lens), max_len)
    blocks = block_table.gather(1, pos // block_size)
    return (blocks * block_size + pos % block_size).reshape(-1)


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
    print("filled slots:", (cache.abs().sum((1, 2)) > 0).nonzero().squeeze(1).tolist())
