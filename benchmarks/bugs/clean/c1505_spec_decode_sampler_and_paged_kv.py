"""Sampling utilities for a paged-KV inference engine with speculative decoding.

Everything works on flattened ("packed") batches: ``num_reqs`` requests, each with
``k`` draft tokens, give ``num_reqs * (k + 1)`` rows of target logits.
"""
import torch


def apply_top_k_top_p(logits, top_k, top_p):
    """Mask logits outside top-k / top-p, per request.

    Args:
        logits (Tensor): ``(num_rows, vocab)``.
        top_k (LongTensor): ``(num_rows,)``, ``vocab`` disables it.
        top_p (Tensor): ``(num_rows,)``, ``1.0`` disables it.
    """
    logits_sort, logits_idx = logits.sort(dim=-1, descending=False)
    vocab = logits.shape[-1]
    # top-k: everything below the k-th largest value goes
    kth = logits_sort.gather(1, (vocab - top_k).clamp(min=0).unsqueeze(1))     # (rows, 1)
    logits_sort = logits_sort.masked_fill(logits_sort < kth, float("-inf"))
    # top-p: drop the low tail whose cumulative mass is <= 1 - p, always keep the largest
    probs_sort = logits_sort.softmax(dim=-1)
    tail_mass = probs_sort.cumsum(dim=-1)
    drop = tail_mass <= 1 - top_p.unsqueeze(1)
    drop[:, -1] = False
    logits_sort = logits_sort.masked_fill(drop, float("-inf"))
    # undo the sort: value j of the sorted row goes back to column logits_idx[:, j]
    return logits_sort.scatter(dim=-1, index=logits_idx, src=logits_sort)


def token_bin_counts(tokens, vocab_size, pad_id=-1):
    """Occurrences of each vocab id in ``tokens`` ``(rows, seq)``; ``pad_id`` entries are ignored."""
    rows = tokens.shape[0]
    safe = torch.where(tokens == pad_id, torch.full_like(tokens, vocab_size), tokens)
    counts = torch.zeros(rows, vocab_size + 1, dtype=torch.long)
    counts.scatter_add_(1, safe, torch.ones_like(safe))
    return counts[:, :vocab_size]


def rejection_sample(draft_token_ids, draft_probs, target_probs, uniform, bonus_token_ids):
    """Standard speculative-sampling acceptance.

    Args:
        draft_token_ids (LongTensor): ``(num_reqs, k)``.
        draft_probs (Tensor): ``(num_reqs, k, vocab)``.
        target_probs (Tensor): ``(num_reqs, k + 1, vocab)``; row ``k`` is for the bonus token.
        uniform (Tensor): ``(num_reqs, k)`` uniform noise.
        bonus_token_ids (LongTensor): ``(num_reqs,)`` sampled from ``target_probs[:, k]``.

    Returns:
        LongTensor: ``(num_reqs, k + 1)`` output tokens, ``-1`` after the first rejection.
        LongTensor: ``(num_reqs,)`` number of valid output tokens.
    """
    num_reqs, k = draft_token_ids.shape
    idx = draft_token_ids.unsqueeze(-1)                                # (reqs, k, 1)
    q = draft_probs.gather(-1, idx).squeeze(-1)                        # (reqs, k)
    p = target_probs[:, :k].gather(-1, idx).squeeze(-1)                # (reqs, k)
    accepted = uniform < (p / q.clamp_min(1e-10)).clamp(max=1.0)
    prefix_ok = accepted.long().cumprod(dim=1)                         # 1 until the first reject
    num_accepted = prefix_ok.sum(dim=1)                                # (reqs,)

    # recovered distribution max(0, p - q) at every draft position
    residual = (target_probs[:, :k] - draft_probs).clamp_min(0)
    residual = residual / residual.sum(-1, keepdim=True).clamp_min(1e-10)
    recovered = residual.argmax(-1)                                    # deterministic for the demo

    out = torch.full((num_reqs, k + 1), -1, dtype=torch.long)
    out[:, :k] = torch.where(prefix_ok.bool(), draft_token_ids, out[:, :k])
    # position num_accepted gets the recovered token, or the bonus token if all were accepted
    extra = torch.where(num_accepted == k, bonus_token_ids,
                        recovered.gather(1, num_accepted.clamp(max=k - 1).unsqueeze(1)).squeeze(1))
    out.scatter_(1, num_accepted.unsqueeze(1), extra.unsqueeze(1))
    return out, num_accepted + 1


def slot_mapping(block_table, positions, req_indices, block_size):
    """Physical KV slot of every token.

    Args:
        block_table (LongTensor): ``(max_reqs, max_blocks)`` physical block ids per request.
        positions (LongTensor): ``(num_tokens,)`` logical position of each token.
        req_indices (LongTensor): ``(num_tokens,)`` request row of each token.
    """
    block_numbers = positions // block_size
    block_ids = block_table[req_indices, block_numbers]
    return block_ids * block_size + positions % block_size


def write_kv(kv_cache, slots, key):
    """kv_cache: ``(num_blocks, block_size, heads, head_dim)``; key: ``(num_tokens, heads, head_dim)``."""
    flat = kv_cache.view(-1, *kv_cache.shape[2:])
    flat.index_copy_(0, slots, key)


if __name__ == "__main__":
    torch.manual_seed(0)
    reqs, k, vocab = 3, 4, 12

    # --- top-k / top-p
    logits = torch.randn(reqs, vocab)
    top_k = torch.tensor([3, vocab, 5])
    top_p = torch.tensor([1.0, 0.6, 0.9])
    masked = apply_top_k_top_p(logits, top_k, top_p)
    for r in range(reqs):
        vals = sorted(logits[r].tolist(), reverse=True)
        keep_k = set(vals[: int(top_k[r])])
        kept_vals = [v for v in vals if v in keep_k]
        probs = torch.tensor(kept_vals).softmax(0).tolist()
        keep, mass = set(), 0.0
        for v, pr in zip(kept_vals, probs):
            keep.add(v)
            mass += pr
            if mass >= float(top_p[r]) - 1e-6:
                break
        for j in range(vocab):
            v = logits[r, j].item()
            expect = v if v in keep else float("-inf")
            assert masked[r, j].item() == expect, (r, j)

    # --- penalty bin counts with padding
    hist = torch.tensor([[1, 4, 4, -1], [0, 0, 11, 2]])
    counts = token_bin_counts(hist, vocab)
    for r in range(2):
        for v in range(vocab):
            assert counts[r, v].item() == sum(1 for t in hist[r].tolist() if t == v)

    # --- rejection sampling
    draft_probs = torch.rand(reqs, k, vocab).softmax(-1)
    target_probs = torch.rand(reqs, k + 1, vocab).softmax(-1)
    draft_ids = torch.randint(0, vocab, (reqs, k))
    uniform = torch.rand(reqs, k)
    uniform[1] = 0.0                                       # request 1 accepts everything
    bonus = torch.randint(0, vocab, (reqs,))
    out, n_out = rejection_sample(draft_ids, draft_probs, target_probs, uniform, bonus)
    for r in range(reqs):
        expect = []
        for j in range(k):
            d = draft_ids[r, j].item()
            ratio = min(1.0, target_probs[r, j, d].item() / max(draft_probs[r, j, d].item(), 1e-10))
            if uniform[r, j].item() < ratio:
                expect.append(d)
                continue
            res = [max(0.0, target_probs[r, j, v].item() - draft_probs[r, j, v].item()) for v in range(vocab)]
            expect.append(max(range(vocab), key=lambda v: res[v]))
            break
        else:
            expect.append(bonus[r].item())
        assert out[r, : len(expect)].tolist() == expect, (r, out[r], expect)
        assert n_out[r].item() == len(expect)
        assert all(t == -1 for t in out[r, len(expect):].tolist())

    # --- paged KV write
    block_size, heads, head_dim = 4, 2, 3
    block_table = torch.tensor([[5, 2, 0], [1, 3, 4]])
    positions = torch.tensor([6, 7, 0, 9])
    req_idx = torch.tensor([0, 0, 1, 1])
    slots = slot_mapping(block_table, positions, req_idx, block_size)
    cache = torch.zeros(6, block_size, heads, head_dim)
    key = torch.randn(4, heads, head_dim)
    write_kv(cache, slots, key)
    for t in range(4):
        blk = block_table[req_idx[t], positions[t] // block_size].item()
        assert torch.equal(cache[blk, positions[t].item() % block_size], key[t])
    print("ok")
