import torch


def nucleus_filter(logits, top_p=1.0, top_k=None, filter_value=-1e10):
    """Mask out logits outside the top-k / top-p set.

    Args:
        logits (`torch.FloatTensor` of shape `(batch_size, vocab_size)`):
            Next-token scores.
        top_p (`float`): keep the smallest set of tokens whose cumulative probability exceeds `top_p`.
        top_k (`int`, *optional*): keep only the `top_k` highest-scoring tokens.

    Returns:
        `torch.FloatTensor` of shape `(batch_size, vocab_size)`: the filtered logits.
    """
    sorted_logits, sorted_indices = torch.sort(logits, descending=True, dim=-1)
    cumulative_probs = sorted_logits.softmax(dim=-1).cumsum(dim=-1)
    sorted_indices_to_remove = cumulative_probs > top_p
    sorted_indices_to_remove[..., 1:] = sorted_indices_to_remove[..., :-1].clone()
    sorted_indices_to_remove[..., 0] = False
    if top_k is not None:
        indices_range = torch.arange(logits.size(-1)).expand_as(logits)
        sorted_indices_to_remove |= indices_range > top_k
    indices_to_remove = sorted_indices_to_remove.scatter(-1, sorted_indices, sorted_indices_to_remove)
    return logits.masked_fill(indices_to_remove, filter_value)


def sample_next(logits, generator, **filter_kwargs):
    """Sample one token per row from the filtered distribution.

    Args:
        logits (`torch.FloatTensor` of shape `(batch_size, vocab_size)`).

    Returns:
        `torch.LongTensor` of shape `(batch_size,)`.
    """
    probs = nucleus_filter(logits, **filter_kwargs).softmax(dim=-1)
    return torch.multinomial(probs, 1, generator=generator).squeeze(-1)


if __name__ == "__main__":
    logits = torch.tensor([[-2, -1, 0, 0.8, 0, 0.1, 0.3, 0.4, 0.5, 0.6, 0.7, -3]])
    filtered = nucleus_filter(logits, top_k=1)
    print("tokens kept with top_k=1:", (filtered > -1e9).nonzero()[:, 1].tolist())
    g = torch.Generator().manual_seed(0)
    draws = torch.stack([sample_next(logits, g, top_k=1) for _ in range(200)])
    print("distinct greedy (top_k=1) samples:", sorted(set(draws.flatten().tolist())))
