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
    denom = torch.sum(filtered, dim=1).clamp_min(1e-12).unsqueeze(-1)
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
    probas = torch.softmax(logits / 0.7, dim=1)
    got = top_p_filter(probas, 0.8)
    for b in range(3):
        row = probas[b].tolist()
        order = sorted(range(16), key=lambda i: -row[i])
        ref = [0.0] * 16
        mass = 0.0
        for i in order:
            if mass < 0.8:
                ref[i] = row[i]
            mass += row[i]
        total = sum(ref)
        ref = torch.tensor([v / total for v in ref])
        assert torch.allclose(got[b], ref, atol=1e-6)
        assert ref[ids[b]] > 0
    print("ok")
