import torch


def slot_mapping(block_table, positions, block_size):
    # block_table: [B, max_blocks] physical block of each logical block
    # positions:   [B, L] token positions (all valid here)
    logical = positions // block_size                                   # [B, L]
    physical = torch.gather(block_table, 1, logical)                    # [B, L]
    return physical * block_size + positions % block_size               # [B, L]


def write_kv(cache, slots, kv):
    # cache: [num_blocks, block_size, D]; slots: [N]; kv: [N, D]
    flat = cache.view(-1, cache.shape[-1])
    flat.index_copy_(0, slots, kv)


def read_kv(cache, slots):
    # slots: [B, L] -> [B, L, D]
    flat = cache.view(-1, cache.shape[-1])
    B, L = slots.shape
    idx = slots.reshape(-1, 1).expand(-1, flat.shape[-1])
    return torch.gather(flat, 0, idx).view(B, L, -1)


def repetition_penalty(logits, prev_ids, penalty):
    # logits: [B, V]; prev_ids: [B, T] (may repeat ids: every copy writes the same value)
    picked = torch.gather(logits, 1, prev_ids)                          # [B, T]
    picked = torch.where(picked < 0, picked * penalty, picked / penalty)
    return logits.scatter(1, prev_ids, picked)


if __name__ == "__main__":
    torch.manual_seed(0)
    B, L, bs, D, nb = 2, 6, 4, 5, 8
    block_table = torch.tensor([[3, 5], [1, 6]])
    positions = torch.arange(L).unsqueeze(0).expand(B, -1)
    slots = slot_mapping(block_table, positions, bs)
    cache = torch.zeros(nb, bs, D)
    kv = torch.randn(B * L, D)
    write_kv(cache, slots.reshape(-1), kv)
    got = read_kv(cache, slots)
    for b in range(B):
        for p in range(L):
            blk = int(block_table[b, p // bs])
            for d in range(D):
                assert float(cache[blk, p % bs, d]) == float(kv[b * L + p, d])
                assert float(got[b, p, d]) == float(kv[b * L + p, d])

    V = 10
    logits = torch.randn(B, V)
    prev = torch.tensor([[1, 3, 3, 7], [0, 0, 9, 2]])
    out = repetition_penalty(logits, prev, 1.3)
    for b in range(B):
        seen = set(prev[b].tolist())
        for v in range(V):
            x = float(logits[b, v])
            ref = (x * 1.3 if x < 0 else x / 1.3) if v in seen else x
            assert abs(float(out[b, v]) - ref) < 1e-6
    print("ok")
