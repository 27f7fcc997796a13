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
    # fp32 accumulation can stay below top_p for a whole row; then keep every token
    last_kept = last_kept.clamp(max=cumulative.size(-1) - 1)

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


def reference_filter(logits, top_p):
    out = torch.zeros_like(logits)
    probs = F.softmax(logits, dim=-1)
    for b in range(logits.size(0)):
        order = sorted(range(logits.size(1)), key=lambda j: -probs[b, j].item())
        row = probs[b, order]
        cum = row.cumsum(0)
        k = len(order) - 1
        for j in range(len(order)):
            if cum[j].item() >= top_p:
                k = j
                break
        mass = cum[k].item()
        for j in range(k + 1):
            out[b, order[j]] = row[j].item() / mass
    return out


if __name__ == "__main__":
    torch.manual_seed(0)
    logits = torch.randn(2, 32000)
    gen = torch.Generator().manual_seed(1)
    tokens = sample_step(logits, top_p=0.9999999, generator=gen)
    small = torch.randn(3, 50)
    for p in (0.5, 0.9, 0.9999999):
        got = nucleus_filter(small, top_p=p)
        assert torch.allclose(got, reference_filter(small, p), atol=1e-6), p
    got = nucleus_filter(logits, top_p=0.9999999)
    assert torch.allclose(got.sum(-1), torch.ones(2), atol=1e-5)
    assert (got[1] > 0).all()
    assert tokens.shape == (2,)
    print("ok")
