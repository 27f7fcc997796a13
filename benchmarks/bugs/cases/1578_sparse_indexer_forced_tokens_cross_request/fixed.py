import torch


def mask_init_and_local_tokens(logits, row_starts, lengths, num_init_tokens, num_local_tokens):
    if num_init_tokens > 0:
        init_idxs = torch.arange(num_init_tokens)[None, :] + row_starts[:, None]
        init_idxs = torch.minimum(init_idxs, (row_starts + lengths - 1)[:, None])
        logits.scatter_(dim=1, index=init_idxs, value=float("inf"))
    if num_local_tokens > 0:
        local_idxs = lengths[:, None] - 1 + row_starts[:, None] - torch.arange(num_local_tokens)[None, :]
        local_idxs = torch.maximum(local_idxs, row_starts[:, None])
        logits.scatter_(dim=1, index=local_idxs, value=float("inf"))
    return logits


def select_topk_keys(logits, row_starts, lengths, topk, num_init_tokens, num_local_tokens):
    cols = torch.arange(logits.shape[-1])[None, :]
    in_row = (cols >= row_starts[:, None]) & (cols < (row_starts + lengths)[:, None])
    logits = logits.masked_fill(~in_row, float("-inf"))
    logits = mask_init_and_local_tokens(logits, row_starts, lengths, num_init_tokens, num_local_tokens)
    k = min(topk, logits.shape[-1])
    return logits.topk(k, dim=-1)


if __name__ == "__main__":
    torch.manual_seed(0)
    seq_lens = torch.tensor([3, 2, 9])
    kv_starts = torch.cumsum(seq_lens, 0) - seq_lens
    # one query row per request (decode), keys of all requests packed in one pool
    row_starts, lengths = kv_starts.clone(), seq_lens.clone()
    logits = torch.randn(len(seq_lens), int(seq_lens.sum()))
    values, idx = select_topk_keys(logits, row_starts, lengths, topk=4, num_init_tokens=4, num_local_tokens=4)
    for r in range(len(seq_lens)):
        lo, hi = row_starts[r].item(), (row_starts[r] + lengths[r]).item()
        forced = set(range(lo, min(lo + 4, hi))) | set(range(max(hi - 4, lo), hi))
        picked = {i for i, v in zip(idx[r].tolist(), values[r].tolist()) if v > float("-inf")}
        assert all(lo <= i < hi for i in picked), (r, picked)
        if len(forced) <= 4:
            assert forced <= picked, (r, forced, picked)
        for i in picked:
            if i not in forced:
                assert values[r].tolist()[idx[r].tolist().index(i)] == logits[r, i].item()
    print("ok")
