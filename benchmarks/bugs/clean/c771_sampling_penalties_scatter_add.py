"""Sampling-time logit processors: repetition / frequency / presence penalties and top-k filtering.

Generated ids are right-padded with ``pad_id == vocab_size``; counts get one extra column for
the padding that is sliced off, so the scatter never sees an id outside its destination.
"""
import math

import torch

VOCAB = 20


def pad_batch(seqs, pad_id):
    width = max(len(s) for s in seqs)
    return torch.tensor([s + [pad_id] * (width - len(s)) for s in seqs], dtype=torch.long)


def token_counts(ids: torch.Tensor, vocab_size: int) -> torch.Tensor:
    # ids: [B, T] with padding == vocab_size  ->  counts: [B, V]
    counts = torch.zeros(ids.shape[0], vocab_size + 1, dtype=torch.long)
    counts.scatter_add_(1, ids, torch.ones_like(ids))
    return counts[:, :vocab_size]


def apply_penalties(logits, ids, frequency=0.3, presence=0.2, repetition=1.2):
    # logits: [B, V]; ids: [B, T] padded with VOCAB
    counts = token_counts(ids, logits.shape[1])
    logits = logits - frequency * counts - presence * (counts > 0).to(logits.dtype)
    # HF-style repetition penalty on the seen ids; an extra column receives the padding id
    ext = torch.cat([logits, logits.new_zeros(logits.shape[0], 1)], dim=1)  # [B, V + 1]
    picked = torch.gather(ext, 1, ids)
    picked = torch.where(picked > 0, picked / repetition, picked * repetition)
    ext.scatter_(1, ids, picked)  # every copy of an id carries the same value
    return ext[:, : logits.shape[1]]


def top_k_filter(logits, k):
    # keep the k largest entries per row, -inf elsewhere
    vals, idx = logits.topk(k, dim=-1)
    return torch.full_like(logits, float("-inf")).scatter(1, idx, vals)


if __name__ == "__main__":
    torch.manual_seed(0)
    logits = torch.randn(3, VOCAB)
    seqs = [[3, 3, 7, 0], [19, 5], [2, 2, 2, 11, 0, 0]]
    ids = pad_batch(seqs, pad_id=VOCAB)
    out = apply_penalties(logits, ids)

    for b, s in enumerate(seqs):
        for v in range(VOCAB):
            c = s.count(v)
            want = float(logits[b, v]) - 0.3 * c - 0.2 * (1 if c else 0)
            if c:
                want = want / 1.2 if want > 0 else want * 1.2
            assert abs(float(out[b, v]) - want) < 1e-5, (b, v)

    filt = top_k_filter(out, 4)
    for b in range(3):
        row = sorted(range(VOCAB), key=lambda v: -float(out[b, v]))[:4]
        for v in range(VOCAB):
            if v in row:
                assert float(filt[b, v]) == float(out[b, v])
            else:
                assert math.isinf(float(filt[b, v]))
    print("ok")
