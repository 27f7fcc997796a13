import torch
import torch.nn.functional as F


def nucleus_filter(logits, top_p=0.9, temperature=1.0):
    """Keep the smallest set of tokens whose probability mass reaches ``top_p``.

    Args:
        logits: ``(batch, vocab)`` next-token scores.
        top_p: nucleus mass, in ``(0, 1]``.
        temperature: softmax temperature.

    Returns:
        ``(batch, vocab)`` probabilities, zero outside the nucleus and
        renormalised inside it.
    """
    probs = F.softmax(logits / temperature, dim=-1)
    sorted_probs, sorted_idx = probs.sort(dim=-1, descending=True)
    cumulative = sorted_probs.cumsum(dim=-1)

    threshold = torch.full_like(cumulative[:, :1], top_p)
    last_kept = torch.searchsorted(cumulative, threshold)

    boundary = torch.zeros_like(sorted_probs).scatter_(1, last_kept, 1.0)
    keep_sorted = boundary.flip(-1).cumsum(-1).flip(-1) > 0
    kept_mass = cumulative.gather(1, last_kept)

    filtered = torch.where(keep_sorted, sorted_probs / kept_mass, torch.zeros_like(sorted_probs))
    return torch.zeros_like(probs).scatter_(1, sorted_idx, filtered)


def sample_step(logits, top_p, generator):
    """Draw one token per row from the nucleus.

    Args:
        logits: ``(batch, vocab)``.
    Returns:
        ``(batch,)`` token ids.
    """
    probs = nucleus_filter(logits, top_p=top_p)
    return torch.multinomial(probs, 1, generator=generator).squeeze(-1)


if __name__ == "__main__":
    torch.manual_seed(0)
    logits = torch.randn(2, 32000)
    gen = torch.Generator().manual_seed(1)
    tokens = sample_step(logits, top_p=0.9999999, generator=gen)
    print("sampled", tokens.tolist())
