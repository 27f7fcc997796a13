"""Batched sampler utilities for an LLM serving engine.

Every request in the batch owns one row of ``logits``; the output tokens generated so far
and the prompt tokens are kept as right-padded id tensors, padded with ``vocab_size`` so the
pad id lands in a spare column that is cut off after counting.
"""
import torch


def token_bin_counts(tokens: torch.Tensor, vocab_size: int) -> torch.Tensor:
    """Occurrence counts per request.

    Args:
        tokens: ``[num_reqs, max_len]`` token ids padded with ``vocab_size``.
        vocab_size: real vocabulary size.

    Returns:
        ``[num_reqs, vocab_size]`` int64 counts.
    """
    counts = torch.zeros(tokens.size(0), vocab_size + 1, dtype=torch.long, device=tokens.device)
    counts.scatter_add_(1, tokens, torch.ones_like(tokens))
    return counts[:, :vocab_size]


def apply_penalties(
    logits: torch.Tensor,
    prompt_tokens: torch.Tensor,
    output_tokens: torch.Tensor,
    presence: torch.Tensor,
    frequency: torch.Tensor,
    repetition: torch.Tensor,
) -> torch.Tensor:
    """OpenAI-style presence/frequency penalties on generated tokens and HF-style repetition
    penalty on prompt + generated tokens.

    Args:
        logits: ``[num_reqs, vocab_size]``.
        prompt_tokens: ``[num_reqs, prompt_len]`` padded with ``vocab_size``.
        output_tokens: ``[num_reqs, out_len]`` padded with ``vocab_size``.
        presence, frequency, repetition: ``[num_reqs]`` per-request parameters.
    """
    num_reqs, vocab_size = logits.shape
    output_counts = token_bin_counts(output_tokens, vocab_size)
    seen = (token_bin_counts(prompt_tokens, vocab_size) > 0) | (output_counts > 0)

    rep = repetition.unsqueeze(1).expand(num_reqs, vocab_size)
    rep = torch.where(seen, rep, torch.ones_like(rep))
    logits = torch.where(logits > 0, logits / rep, logits * rep)

    logits = logits - frequency.unsqueeze(1) * output_counts.to(logits.dtype)
    logits = logits - presence.unsqueeze(1) * (output_counts > 0).to(logits.dtype)
    return logits


def apply_top_k_top_p(logits: torch.Tensor, top_k: torch.Tensor, top_p: torch.Tensor) -> torch.Tensor:
    """Mask everything outside the per-request top-k / nucleus to -inf.

    Args:
        logits: ``[num_reqs, vocab_size]``.
        top_k: ``[num_reqs]`` int64, ``vocab_size`` disables it.
        top_p: ``[num_reqs]`` float in (0, 1].
    """
    sorted_logits, sorted_idx = logits.sort(dim=-1, descending=False)

    # top-k: the k-th largest value sits at column vocab_size - k of the ascending sort
    kth_col = (logits.size(1) - top_k).clamp(min=0).unsqueeze(1)  # [num_reqs, 1]
    kth_value = sorted_logits.gather(1, kth_col)  # [num_reqs, 1]
    sorted_logits = sorted_logits.masked_fill(sorted_logits < kth_value, float("-inf"))

    # top-p on the ascending cumulative mass; always keep the largest token
    probs_sort = sorted_logits.softmax(dim=-1)
    cum = probs_sort.cumsum(dim=-1)
    drop = cum <= (1 - top_p.unsqueeze(1))
    drop[:, -1] = False
    sorted_logits = sorted_logits.masked_fill(drop, float("-inf"))

    # undo the sort: scatter each sorted value back to its vocabulary column
    return torch.empty_like(logits).scatter_(1, sorted_idx, sorted_logits)


def sampled_token_logprobs(logits: torch.Tensor, token_ids: torch.Tensor, num_top: int):
    """Logprob and rank of the sampled token plus the top-``num_top`` alternatives.

    Args:
        logits: ``[num_reqs, vocab_size]`` processed logits.
        token_ids: ``[num_reqs]`` sampled ids.

    Returns:
        ids ``[num_reqs, 1 + num_top]``, logprobs ``[num_reqs, 1 + num_top]``, ranks ``[num_reqs]``.
    """
    logprobs = logits.log_softmax(dim=-1)
    sampled = logprobs.gather(-1, token_ids.unsqueeze(-1))  # [num_reqs, 1]
    ranks = (logprobs > sampled).sum(-1) + 1  # 1-based rank of the sampled token
    top_lp, top_ids = logprobs.topk(num_top, dim=-1)
    ids = torch.cat([token_ids.unsqueeze(-1), top_ids], dim=1)
    lps = torch.cat([sampled, top_lp], dim=1)
    return ids, lps, ranks


def pad_rows(rows, pad_id):
    width = max(1, max(len(r) for r in rows))
    return torch.tensor([r + [pad_id] * (width - len(r)) for r in rows], dtype=torch.long)


if __name__ == "__main__":
    torch.manual_seed(0)
    V = 24
    prompts = [[1, 2, 2, 3], [5, 6], [7]]
    outputs = [[2, 2, 9], [], [7, 7, 7, 8]]
    presence = torch.tensor([0.5, 0.0, 0.2])
    frequency = torch.tensor([0.3, 0.1, 0.0])
    repetition = torch.tensor([1.2, 1.0, 1.5])
    top_k = torch.tensor([5, V, 3])
    top_p = torch.tensor([0.9, 0.5, 1.0])
    logits = torch.randn(3, V) * 2

    pen = apply_penalties(logits, pad_rows(prompts, V), pad_rows(outputs, V), presence, frequency, repetition)
    ref = logits.clone()
    for r in range(3):
        seen = set(prompts[r]) | set(outputs[r])
        for t in range(V):
            x = ref[r, t]
            if t in seen:
                x = x / repetition[r] if x > 0 else x * repetition[r]
            c = outputs[r].count(t)
            x = x - frequency[r] * c - presence[r] * (1.0 if c > 0 else 0.0)
            ref[r, t] = x
    assert torch.allclose(pen, ref, atol=1e-6)

    masked = apply_top_k_top_p(pen, top_k, top_p)
    for r in range(3):
        order = sorted(range(V), key=lambda t: -pen[r, t].item())
        keep = set(order[: int(top_k[r])])
        kept_sorted = [t for t in order if t in keep]
        p = torch.softmax(torch.tensor([pen[r, t].item() for t in kept_sorted]), 0).tolist()
        nucleus, mass = [], 0.0
        for t, pt in zip(kept_sorted, p):
            nucleus.append(t)
            mass += pt
            if mass >= top_p[r].item() - 1e-6:
                break
        finite = {t for t in range(V) if torch.isfinite(masked[r, t])}
        assert finite == set(nucleus), (r, finite, nucleus)
        for t in finite:
            assert masked[r, t] == pen[r, t]

    tokens = masked.argmax(-1)
    ids, lps, ranks = sampled_token_logprobs(masked, tokens, num_top=2)
    full = masked.log_softmax(-1)
    for r in range(3):
        assert ids[r, 0] == tokens[r] and torch.isclose(lps[r, 0], full[r, tokens[r]])
        assert ranks[r].item() == 1 + sum(1 for t in range(V) if full[r, t] > full[r, tokens[r]])
    print("ok")
