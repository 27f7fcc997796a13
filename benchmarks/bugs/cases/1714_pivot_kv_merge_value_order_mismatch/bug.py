import torch


def merge_kv(key_states, value_states, indices, window_size):
    """LOOK-M style pivot merge: evicted KV entries are averaged into their most similar kept key."""
    bsz, num_heads, k_len, head_dim = key_states.shape
    past_len = k_len - window_size
    kept_k = key_states.gather(dim=2, index=indices)
    kept_v = value_states.gather(dim=2, index=indices)
    keep = torch.zeros(bsz, num_heads, past_len, dtype=torch.bool).scatter_(2, indices[..., 0], True)
    evict_idx = (~keep).nonzero()[:, 2].view(bsz, num_heads, -1)
    evict_idx = evict_idx.unsqueeze(-1).expand(-1, -1, -1, head_dim)
    evicted_k = key_states.gather(dim=2, index=evict_idx)
    evicted_v = value_states.gather(dim=2, index=evict_idx)
    retained_k = torch.cat([key_states[:, :, past_len:, :], kept_k], dim=2)
    retained_v = torch.cat([kept_v, value_states[:, :, past_len:, :]], dim=2)
    similarity = torch.nn.functional.normalize(evicted_k, dim=-1) @ torch.nn.functional.normalize(retained_k, dim=-1).transpose(-1, -2)
    max_indices = similarity.argmax(dim=-1)
    pivot_index = max_indices.unsqueeze(-1).expand(-1, -1, -1, head_dim)
    pivot_k = torch.gather(retained_k, 2, pivot_index)
    merged_k = (evicted_k + pivot_k) / 2
    retained_k = torch.scatter_reduce(retained_k, 2, pivot_index, merged_k, reduce="mean", include_self=True)
    pivot_v = torch.gather(retained_v, 2, pivot_index)
    merged_v = (evicted_v + pivot_v) / 2
    retained_v = torch.scatter_reduce(retained_v, 2, pivot_index, merged_v, reduce="mean", include_self=True)
    return retained_k, retained_v


def snapkv_select(key_states, query_window, window_size, budget):
    past = key_states[:, :, :-window_size, :]
    scores = (query_window @ past.transpose(-1, -2)).softmax(-1).sum(dim=-2)
    idx = scores.topk(budget, dim=-1).indices.sort(dim=-1).values
    return idx.unsqueeze(-1).expand(-1, -1, -1, key_states.shape[-1])


if __name__ == "__main__":
    torch.manual_seed(0)
    cfg = {"bsz": 1, "heads": 2, "k_len": 12, "head_dim": 8, "window": 3, "budget": 4}
    keys = torch.randn(cfg["bsz"], cfg["heads"], cfg["k_len"], cfg["head_dim"])
    values = torch.randn(cfg["bsz"], cfg["heads"], cfg["k_len"], cfg["head_dim"])
    idx = snapkv_select(keys, keys[:, :, -cfg["window"]:, :], cfg["window"], cfg["budget"])
    new_k, new_v = merge_kv(keys, values, idx, cfg["window"])
    past_len = cfg["k_len"] - cfg["window"]
    for h in range(cfg["heads"]):
        kept = idx[0, h, :, 0].tolist()
        slots = list(range(past_len, cfg["k_len"])) + kept
        dropped = [p for p in range(past_len) if p not in kept]
        ref_v = {s: [values[0, h, s]] for s in slots}
        for d in dropped:
            sims = torch.stack([torch.cosine_similarity(keys[0, h, d], keys[0, h, s], dim=0) for s in slots])
            tgt = slots[sims.argmax().item()]
            ref_v[tgt].append((values[0, h, d] + values[0, h, tgt]) / 2)
        ref = torch.stack([torch.stack(ref_v[s]).mean(0) for s in slots])
        print(f"head {h}: merged values max |diff| vs per-token reference:", (new_v[0, h] - ref).abs().max().item())
