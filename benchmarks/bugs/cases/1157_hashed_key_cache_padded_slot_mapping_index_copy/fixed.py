import torch

NULL_SLOT = 0


class HashedKeyCache:
    """Per-block sign hashes of the attention keys, used for sparse top-k block retrieval.

    Args:
        num_blocks: number of cache blocks.
        block_size: tokens per block.
        head_dim: size of one key vector.
        hash_bits: bits of the sign hash per token.

    The cache tensor has shape (num_blocks, block_size, hash_bits).
    """

    def __init__(self, num_blocks, block_size, head_dim, hash_bits=16, seed=0):
        g = torch.Generator().manual_seed(seed)
        self.proj = torch.randn(head_dim, hash_bits, generator=g)
        self.cache = torch.zeros(num_blocks, block_size, hash_bits)
        self.hash_bits = hash_bits

    def hash_keys(self, key):
        """key: (num_tokens, head_dim) -> (num_tokens, hash_bits) of +-1."""
        return torch.sign(key @ self.proj)

    def store(self, key, slot_mapping, num_actual_tokens):
        """Write the hashes of the scheduled tokens.

        Args:
            key: (num_padded_tokens, head_dim), padded up to the captured graph size.
            slot_mapping: (num_padded_tokens,) flat cache slot of every token; padding points at NULL_SLOT.
            num_actual_tokens: number of real tokens at the front of the batch.
        """
        k_hash = self.hash_keys(key[:num_actual_tokens])
        flat = self.cache.view(-1, self.hash_bits)
        flat.index_copy_(0, slot_mapping[:num_actual_tokens], k_hash)


def pad_batch(key, slots, graph_size):
    n = key.shape[0]
    key = torch.cat([key, key.new_zeros(graph_size - n, key.shape[1])])
    slots = torch.cat([slots, slots.new_full((graph_size - n,), NULL_SLOT)])
    return key, slots


if __name__ == "__main__":
    torch.manual_seed(0)
    cache = HashedKeyCache(num_blocks=6, block_size=4, head_dim=8)
    key = torch.randn(5, 8)
    slots = torch.tensor([4, 5, 6, 7, 8])
    key_p, slots_p = pad_batch(key, slots, graph_size=8)
    cache.store(key_p, slots_p, num_actual_tokens=5)
    flat = cache.cache.view(-1, cache.hash_bits)
    for t in range(5):
        for b in range(cache.hash_bits):
            dot = sum(float(key[t, d]) * float(cache.proj[d, b]) for d in range(8))
            ref = 1.0 if dot > 0 else (-1.0 if dot < 0 else 0.0)
            assert float(flat[int(slots[t]), b]) == ref
    written = set(int(s_) for s_ in slots)
    for row in range(flat.shape[0]):
        if row not in written:
            assert torch.count_nonzero(flat[row]) == 0
    print("ok")
