import torch


def top_p_filter(probas, top_p):
    """Nucleus filtering of next-token probabilities.

    Args:
        probas: tensor of shape (batch_size, vocab_size), rows sum to 1.
        top_p: cumulative probability mass to keep.

    Returns:
        Tensor of shape (batch_size, vocab_size): the kept probabilities,
        renormalized per row, zeros elsewhere.
    """
    sorted_probas, sorted_idx = torch.sort(probas, dim=1, descending=True)
    cumprobas = torch.cumsum(sorted_probas, dim=1)
    keep = (cumprobas - sorted_probas) < top_p
    kept_sorted = torch.where(keep, sorted_probas, torch.zeros_like(sorted_probas))
    filtered = torch.zeros_like(probas).scatter(1, sorted_idx, kept_sorted)
    denom = torch.sum(filtered, dim=1).clamp_min(1e-12)
    return filtered / denom


def sample_next_tokens(logits, top_p=0.8, temperature=0.7, generator=None):
    """Args: logits (batch_size, vocab_size). Returns: token ids (batch_size,)."""
    probas = torch.softmax(logits / temperature, dim=1)
    probas = top_p_filter(probas, top_p)
    return torch.multinomial(probas, num_samples=1, generator=generator).squeeze(1)


if __name__ == "__main__":
    g = torch.Generator().manual_seed(0)
    logits = torch.randn(3, 16, generator=g) * 2.0
    ids = sample_next_tokens(logits, top_p=0.8, generator=g)
    print(ids)
