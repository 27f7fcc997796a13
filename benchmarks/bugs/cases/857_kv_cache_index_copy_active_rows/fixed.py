import torch
import torch.nn as nn


class SlotKVCache:
    """Per-request key cache addressed by slot id.

    Args:
        num_slots: number of cache slots
        max_len: tokens kept per slot
        heads, head_dim: key layout
    """

    def __init__(self, num_slots, max_len, heads, head_dim):
        self.keys = torch.zeros(max_len, num_slots, heads, head_dim)

    def write(self, step, slot_ids, new_keys):
        """Store the keys of one decoding step.

        Args:
            step: position being written
            slot_ids: (n,) slot of each request
            new_keys: (n, heads, head_dim) keys of those requests
        """
        self.keys[step].index_copy_(0, slot_ids, new_keys)


class DecodeStep(nn.Module):
    def __init__(self, hidden, heads, head_dim):
        super().__init__()
        self.heads, self.head_dim = heads, head_dim
        self.k_proj = nn.Linear(hidden, heads * head_dim)

    def forward(self, cache, step, hidden, slot_ids, finished):
        """hidden: (batch, hidden); slot_ids: (batch,); finished: (batch,) bool."""
        active = ~finished
        k = self.k_proj(hidden[active]).view(-1, self.heads, self.head_dim)
        cache.write(step, slot_ids[active], k)
        return k


if __name__ == "__main__":
    torch.manual_seed(0)
    cache = SlotKVCache(num_slots=8, max_len=16, heads=2, head_dim=4)
    layer = DecodeStep(hidden=12, heads=2, head_dim=4)
    slot_ids = torch.tensor([5, 0, 3, 6])
    finished = torch.tensor([False, True, False, False])
    hidden = torch.randn(4, 12)
    with torch.no_grad():
        k = layer(cache, 3, hidden, slot_ids, finished)
        full = layer.k_proj(hidden).view(4, 2, 4)
    for b in range(4):
        expect = torch.zeros(2, 4) if finished[b] else full[b]
        assert torch.allclose(cache.keys[3, int(slot_ids[b])], expect)
    for s in range(8):
        if s not in slot_ids.tolist():
            assert cache.keys[3, s].abs().sum() == 0
    print("ok")
