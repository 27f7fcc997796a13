import torch


class PagedCaches:
    def __init__(self, num_slots=64, kv_dim=16, index_dim=8, max_tokens=32):
        self.kv_cache = torch.zeros(num_slots, kv_dim)
        self.index_cache = torch.zeros(num_slots, index_dim)
        self.slot_mapping_buf = torch.full((max_tokens,), -1, dtype=torch.long)
        self.index_slot_mapping_buf = torch.zeros(max_tokens, dtype=torch.long)
        self.slot_mapping = None
        self.index_slot_mapping = None

    def prepare(self, slots, padded_len):
        n = slots.numel()
        self.slot_mapping_buf[:padded_len] = -1
        self.slot_mapping_buf[:n] = slots
        self.index_slot_mapping_buf[:padded_len] = -1
        self.index_slot_mapping_buf[:n] = slots
        self.slot_mapping = self.slot_mapping_buf[:padded_len]
        self.index_slot_mapping = self.index_slot_mapping_buf[:padded_len]

    def store(self, k, k_index):
        valid = self.slot_mapping >= 0
        self.kv_cache.index_copy_(0, self.slot_mapping[valid], k[valid])
        valid_idx = self.index_slot_mapping >= 0
        self.index_cache.index_copy_(0, self.index_slot_mapping[valid_idx], k_index[valid_idx])


def target_step(caches, slots, padded_len):
    caches.prepare(slots, padded_len)
    k = torch.randn(padded_len, 16)
    k_index = torch.randn(padded_len, 8)
    caches.store(k, k_index)


def draft_step(caches, draft_slots):
    running_bs = draft_slots.numel()
    caches.slot_mapping_buf[:running_bs] = draft_slots
    caches.index_slot_mapping_buf[:running_bs] = draft_slots
    caches.slot_mapping = caches.slot_mapping_buf[:running_bs]
    caches.index_slot_mapping = caches.index_slot_mapping_buf[:running_bs]
    k = torch.randn(running_bs, 16)
    k_index = torch.randn(running_bs, 8)
    caches.store(k, k_index)
    return k, k_index


if __name__ == "__main__":
    torch.manual_seed(0)
    caches = PagedCaches()
    target_step(caches, torch.tensor([3, 4, 5, 9, 10]), padded_len=8)
    k, k_index = draft_step(caches, torch.tensor([6, 11, 12]))
    for row, slot in enumerate([6, 11, 12]):
        for c in range(8):
            assert caches.index_cache[slot, c].item() == k_index[row, c].item()
        for c in range(16):
            assert caches.kv_cache[slot, c].item() == k[row, c].item()
    print("ok")
