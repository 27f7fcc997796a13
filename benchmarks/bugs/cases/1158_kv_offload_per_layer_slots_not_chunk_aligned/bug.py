import torch

CHUNK = 4


class ChunkStore:
    """CPU-side store of KV chunks, keyed by (layer, chunk index)."""

    def __init__(self):
        self.chunks = {}

    def put(self, layer, token_kv):                 # token_kv: [n_tokens, kv_dim]
        for c in range(token_kv.shape[0] // CHUNK):
            self.chunks[(layer, c)] = token_kv[c * CHUNK:(c + 1) * CHUNK].clone()

    def get(self, layer, n_tokens):                 # -> [n_tokens // CHUNK * CHUNK, kv_dim]
        n_chunks = n_tokens // CHUNK
        return torch.cat([self.chunks[(layer, c)] for c in range(n_chunks)])


def load_into_paged_cache(store, kv_caches, token_ids, slot_mapping, slot_mappings):
    # kv_caches[layer]: [num_blocks, block_size, kv_dim]
    # token_ids, slot_mapping: [n_tokens]; slot_mappings[layer]: [n_tokens] (per-layer block tables)
    aligned = (token_ids.shape[0] // CHUNK) * CHUNK
    token_ids = token_ids[:aligned]
    slot_mapping = slot_mapping[:aligned]
    for layer, cache in enumerate(kv_caches):
        kv = store.get(layer, aligned)                             # [aligned, kv_dim]
        slots = slot_mappings[layer]                               # [n_tokens]
        flat = cache.view(-1, cache.shape[-1])                     # [num_blocks * block_size, kv_dim]
        flat.scatter_(0, slots.unsqueeze(-1).expand(-1, flat.shape[-1]), kv)
    return aligned


if __name__ == "__main__":
    torch.manual_seed(0)
    n_layers, kv_dim, n_tokens = 2, 6, 10
    store = ChunkStore()
    for layer in range(n_layers):
        store.put(layer, torch.randn(n_tokens, kv_dim))
    kv_caches = [torch.zeros(8, 4, kv_dim) for _ in range(n_layers)]
    token_ids = torch.arange(100, 100 + n_tokens)
    slot_mapping = torch.arange(4, 4 + n_tokens)
    slot_mappings = {0: slot_mapping.clone(), 1: torch.arange(16, 16 + n_tokens)}
    n = load_into_paged_cache(store, kv_caches, token_ids, slot_mapping, slot_mappings)
    print("loaded", n, "tokens per layer")
