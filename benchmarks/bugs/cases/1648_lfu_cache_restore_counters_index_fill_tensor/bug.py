import torch
import torch.nn as nn


class CachedEmbeddingRows(nn.Module):
    """Keeps the hottest rows of a large CPU embedding table in a small device cache (LFU eviction)."""

    def __init__(self, num_embeddings: int, embedding_dim: int, cache_rows: int):
        super().__init__()
        self.weight = torch.randn(num_embeddings, embedding_dim)
        self.cache = torch.zeros(cache_rows, embedding_dim)
        self.cached_idx_map = torch.full((cache_rows,), -1, dtype=torch.long)  # slot -> table row
        self.inverted_idx = torch.full((num_embeddings,), -1, dtype=torch.long)  # table row -> slot
        self.freq_cnter = torch.zeros(cache_rows, dtype=torch.long)  # hits per slot

    def _find_evict_slots(self, evict_num: int) -> torch.Tensor:
        return torch.argsort(self.freq_cnter, stable=True)[:evict_num]

    @torch.no_grad()
    def _evict(self, evict_num: int, keep_rows: torch.Tensor) -> torch.Tensor:
        protected = torch.isin(self.cached_idx_map, keep_rows)
        protected_slots = torch.nonzero(protected).squeeze(1)
        backup_cnter = self.freq_cnter[protected_slots].clone()
        self.freq_cnter.index_fill_(0, protected_slots, int(self.freq_cnter.max()) + 1)
        evict_slots = self._find_evict_slots(evict_num)
        self.freq_cnter.index_fill_(0, protected_slots, backup_cnter)

        evicted_rows = self.cached_idx_map[evict_slots]
        self.weight.index_copy_(0, evicted_rows, self.cache.index_select(0, evict_slots))
        self.inverted_idx.index_fill_(0, evicted_rows, -1)
        self.cached_idx_map.index_fill_(0, evict_slots, -1)
        self.freq_cnter.index_fill_(0, evict_slots, 0)
        return evict_slots

    @torch.no_grad()
    def prepare(self, ids: torch.Tensor) -> torch.Tensor:
        rows = torch.unique(ids)
        missing = rows[self.inverted_idx[rows] == -1]
        free_slots = torch.nonzero(self.cached_idx_map == -1).squeeze(1)
        if missing.numel() > free_slots.numel():
            self._evict(missing.numel() - free_slots.numel(), rows)
            free_slots = torch.nonzero(self.cached_idx_map == -1).squeeze(1)
        slots = free_slots[: missing.numel()]
        self.cache.index_copy_(0, slots, self.weight.index_select(0, missing))
        self.cached_idx_map.index_copy_(0, slots, missing)
        self.inverted_idx.index_copy_(0, missing, slots)
        slot_ids = self.inverted_idx[ids]
        self.freq_cnter.index_add_(0, slot_ids, torch.ones_like(slot_ids))
        return slot_ids

    def forward(self, ids: torch.Tensor) -> torch.Tensor:
        slot_ids = self.prepare(ids)
        return self.cache.index_select(0, slot_ids)


if __name__ == "__main__":
    torch.manual_seed(0)
    emb = CachedEmbeddingRows(num_embeddings=10, embedding_dim=4, cache_rows=4)
    table = emb.weight.clone()
    batches = [torch.tensor([0, 1, 2]), torch.tensor([0, 1, 2]), torch.tensor([0, 2]),
               torch.tensor([0, 3]), torch.tensor([4, 0]), torch.tensor([5, 6, 0])]
    for ids in batches:
        out = emb(ids)
        print(ids.tolist(), "->", (out - table[ids]).abs().max().item())
