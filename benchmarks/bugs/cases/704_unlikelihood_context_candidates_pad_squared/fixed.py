import torch
import torch.nn.functional as F


def candidate_penalty(lprobs, target, padding_idx, alpha=1.0):
    """Token-level unlikelihood loss on previous-context candidates.

    Args:
        lprobs (FloatTensor): log-probabilities of shape (T, V) for one sequence.
        target (LongTensor): gold tokens of shape (T,).
        padding_idx (int): id of the padding token, used as the "no candidate" filler.

    Returns:
        Tensor: scalar loss.
    """
    with torch.no_grad():
        ctx_cands = target.unsqueeze(0).expand(target.size(0), target.size(0))
        upper = torch.ones_like(ctx_cands, dtype=torch.bool).triu()
        ctx_cands = ctx_cands.tril(-1).masked_fill(upper, padding_idx)
        ctx_cands = ctx_cands.masked_fill(ctx_cands == target.unsqueeze(1), padding_idx)
        negative_targets = torch.zeros_like(lprobs).scatter_(1, ctx_cands, 1)
        negative_targets[:, padding_idx] = 0
    one_minus_probs = torch.clamp(1.0 - lprobs.exp(), min=1e-5)
    return -(torch.log(one_minus_probs) * negative_targets).sum() * alpha


def mle_plus_unlikelihood(logits, target, padding_idx):
    """
    Args:
        logits (FloatTensor): (T, V) decoder outputs.
        target (LongTensor): (T,) gold next tokens.
    """
    lprobs = F.log_softmax(logits, dim=-1)
    mle = F.nll_loss(lprobs, target, ignore_index=padding_idx, reduction="sum")
    return mle + candidate_penalty(lprobs, target, padding_idx)


def reference_penalty(lprobs, target, padding_idx):
    total = 0.0
    for t in range(target.numel()):
        negs = {target[s].item() for s in range(t)} - {target[t].item(), padding_idx}
        for v in negs:
            total += -torch.log(torch.clamp(1.0 - lprobs[t, v].exp(), min=1e-5)).item()
    return total


if __name__ == "__main__":
    torch.manual_seed(0)
    vocab, pad = 1000, 50
    target = torch.tensor([7, 12, 7, 301, 12, 99, 7, 5])
    logits = torch.randn(target.numel(), vocab)
    lprobs = F.log_softmax(logits, dim=-1)
    got = candidate_penalty(lprobs, target, pad).item()
    ref = reference_penalty(lprobs, target, pad)
    assert abs(got - ref) < 1e-4, (got, ref)
    mle_plus_unlikelihood(logits, target, pad)
    print("ok")
