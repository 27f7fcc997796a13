import torch


def top_p_filter(logits, top_p=0.8, min_keep=1):
    # logits: [B, V]; returns logits with the tail outside the nucleus set to -inf
    sorted_logits, sorted_idx = torch.sort(logits, dim=-1, descending=True)   # [B, V]
    cum_probs = sorted_logits.softmax(dim=-1).cumsum(dim=-1)                   # [B, V]
    remove_sorted = cum_probs > top_p
    remove_sorted[:, 1:] = remove_sorted[:, :-1].clone()
    remove_sorted[:, :min_keep] = False
    # sorted_idx is a permutation of each row, so scatter writes every slot exactly once
    remove = remove_sorted.scatter(1, sorted_idx, remove_sorted)               # [B, V]
    return logits.masked_fill(remove, float("-inf"))


def gather_peak_features(feat_map, peak_idx):
    # feat_map: [B, C, H*W], peak_idx: [B, K] flat positions -> [B, K, C]
    idx = peak_idx.unsqueeze(1).expand(-1, feat_map.shape[1], -1)             # [B, C, K]
    return feat_map.gather(2, idx).transpose(1, 2)


if __name__ == "__main__":
    torch.manual_seed(0)
    logits = torch.randn(3, 10)
    out = top_p_filter(logits, top_p=0.7)
    for b in range(3):
        order = sorted(range(10), key=lambda v: -logits[b, v].item())
        probs = logits[b].softmax(-1)
        kept, total = set(), 0.0
        for v in order:
            kept.add(v)
            total += probs[v].item()
            if total > 0.7:
                break
        for v in range(10):
            expect = logits[b, v].item() if v in kept else float("-inf")
            assert out[b, v].item() == expect
    fmap = torch.randn(2, 5, 16)
    peaks = torch.tensor([[3, 15, 0], [7, 7, 2]])
    got = gather_peak_features(fmap, peaks)
    for b in range(2):
        for k in range(3):
            for c in range(5):
                assert got[b, k, c].item() == fmap[b, c, peaks[b, k].item()].item()
    print("ok")
