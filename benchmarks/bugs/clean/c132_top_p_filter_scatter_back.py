import torch


def top_p_filter(logits, top_p=0.9, min_tokens_to_keep=1):
    """Mask the logits outside the nucleus.

    Args:
        logits (Tensor): (batch_size, vocab_size) next-token logits.
        top_p (float): cumulative probability kept.
        min_tokens_to_keep (int): tokens always kept per row.

    Returns:
        Tensor: (batch_size, vocab_size) logits with removed tokens set to -inf.
    """
    sorted_logits, sorted_indices = torch.sort(logits, descending=True, dim=-1)
    cumulative = sorted_logits.softmax(dim=-1).cumsum(dim=-1)  # (batch_size, vocab_size)
    sorted_remove = cumulative > top_p
    # shift right so the token that crosses the threshold stays in
    sorted_remove[..., 1:] = sorted_remove[..., :-1].clone()
    sorted_remove[..., :min_tokens_to_keep] = False
    # sorted_indices is a permutation of each row, so the scatter writes every position exactly once
    remove = sorted_remove.scatter(1, sorted_indices, sorted_remove)
    return logits.masked_fill(remove, float("-inf"))


def sample_next(logits, generator, top_p=0.9):
    """
    Args:
        logits (Tensor): (batch_size, vocab_size).

    Returns:
        Tensor: (batch_size,) sampled token ids and (batch_size,) their log-probabilities under the filtered distribution.
    """
    filtered = top_p_filter(logits, top_p)
    log_probs = filtered.log_softmax(dim=-1)
    next_ids = torch.multinomial(log_probs.exp(), 1, generator=generator)  # (batch_size, 1)
    return next_ids.squeeze(1), log_probs.gather(1, next_ids).squeeze(1)


if __name__ == "__main__":
    torch.manual_seed(0)
    logits = torch.randn(4, 30) * 2
    filtered = top_p_filter(logits, top_p=0.8)
    for b in range(4):
        probs = logits[b].softmax(-1).tolist()
        order = sorted(range(30), key=lambda i: -probs[i])
        kept, total = set(), 0.0
        for i in order:
            kept.add(i)
            total += probs[i]
            if total > 0.8:
                break
        for i in range(30):
            assert (filtered[b, i] != float("-inf")) == (i in kept)
    gen = torch.Generator().manual_seed(1)
    ids, logp = sample_next(logits, gen, top_p=0.8)
    ref = top_p_filter(logits, 0.8).log_softmax(-1)
    for b in range(4):
        assert filtered[b, ids[b]] != float("-inf")
        assert torch.isclose(logp[b], ref[b, ids[b]])
    print("ok")
