"""Paged KV cache: write new keys into slots, read them back per sequence with a block table."""
import torch


class PagedKVCache:
    def __init__(self, num_blocks, block_size, num_heads, head_dim):
        self.block_size = block_size
        # cache: (num_blocks * block_size, num_heads, head_dim)
        self.cache = torch.zeros(num_blocks * block_size, num_heads, head_dim)

    def write(self, slot_mapping, keys):
        # slot_mapping: (num_tokens,) unique flat slots; keys: (num_tokens, num_heads, head_dim)
        self.cache.index_copy_(0, slot_mapping, keys)

    def gather(self, block_table, context_lens):
        # block_table: (batch, max_blocks) int32; returns (batch, max_len, num_heads, head_dim)
        max_len = int(context_lens.max())
        pos = torch.arange(max_len)
        block_idx = block_table.long().gather(1, (pos // self.block_size).expand(block_table.shape[0], -1))
        slots = block_idx * self.block_size + pos % self.block_size
        valid = pos.unsqueeze(0) < context_lens.unsqueeze(1)
        slots = torch.where(valid, slots, torch.zeros_like(slots))
        out = self.cache.index_select(0, slots.flatten()).view(*slots.shape, *self.cache.shape[1:])
        return out * valid[..., None, None]


if __name__ == "__main__":
    torch.manual_seed(0)
    block_size, heads, hd = 4, 2, 3
    kv = PagedKVCache(num_blocks=8, block_size=block_size, num_heads=heads, head_dim=hd)
    block_table = torch.tensor([[5, 2, 0], [7, 1, 3]], dtype=torch.int32)
    context_lens = torch.tensor([6, 10])
    slots, keys, owner = [], [], []
    for b in range(2):
        for t in range(int(context_lens[b])):
            blk = int(block_table[b, t // block_size])
            slots.append(blk * block_size + t % block_size)
            keys.append(torch.randn(heads, hd))
            owner.append((b, t))
    kv.write(torch.tensor(slots), torch.stack(keys))
    got = kv.gather(block_table, context_lens)

    expected = torch.zeros(2, int(context_lens.max()), heads, hd)
    for (b, t), k in zip(owner, keys):
        expected[b, t] = k
    assert torch.equal(got, expected)
    print("ok")
