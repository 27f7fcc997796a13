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
        ctx_cands_ = ctx_cands.tril(-1) + padding_idx
        ctx_cands_ = ctx_cands_ * ctx_cands_.triu()
        ctx_cands = ctx_cands.tril(-1) + ctx_cands_
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


if __name__ == "__main__":
    torch.manual_seed(0)
    vocab, pad = 1000, 50
    target = torch.tensor([7, 12, 7, 301, 12, 99, 7, 5])
    logits = torch.randn(target.numel(), vocab)
    print("loss:", mle_plus_unlikelihood(logits, target, pad).item())
