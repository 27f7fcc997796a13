"""Decoding and loss helpers for an encoder-decoder ASR / MT model (batch-first tensors)."""
from typing import Dict, Optional, Tuple

import torch
import torch.nn.functional as F
from torch import Tensor


def label_smoothed_nll_loss(
    lprobs: Tensor, target: Tensor, epsilon: float, ignore_index: Optional[int] = None
) -> Tuple[Tensor, Tensor]:
    """
    Args:
        lprobs: log-probabilities, shape ``(N, V)``.
        target: gold token ids, shape ``(N,)``.
        epsilon: label smoothing mass.
        ignore_index: padding id whose positions do not count.

    Returns:
        ``(loss, nll_loss)``, both summed over the non-padding positions.
    """
    if target.dim() == lprobs.dim() - 1:
        target = target.unsqueeze(-1)
    nll_loss = -lprobs.gather(dim=-1, index=target)
    smooth_loss = -lprobs.sum(dim=-1, keepdim=True)
    if ignore_index is not None:
        pad_mask = target.eq(ignore_index)
        nll_loss = nll_loss.masked_fill(pad_mask, 0.0)
        smooth_loss = smooth_loss.masked_fill(pad_mask, 0.0)
    nll_loss = nll_loss.squeeze(-1).sum()
    smooth_loss = smooth_loss.squeeze(-1).sum()
    eps_i = epsilon / (lprobs.size(-1) - 1)
    loss = (1.0 - epsilon - eps_i) * nll_loss + eps_i * smooth_loss
    return loss, nll_loss


def expand_for_beam(tensor: Tensor, beam_size: int) -> Tensor:
    """Repeat every batch row ``beam_size`` times, grouped: row ``b * beam_size + k`` is sentence ``b``."""
    batch_size = tensor.size(0)
    new_order = torch.arange(batch_size, device=tensor.device).view(-1, 1).repeat(1, beam_size).view(-1)
    return tensor.index_select(0, new_order)


def reorder_incremental_state(cache: Dict[str, Tensor], new_order: Tensor) -> Dict[str, Tensor]:
    """Self-attention cache entries are ``(batch * beam, heads, steps, head_dim)``; select the parent beams."""
    return {name: value.index_select(0, new_order) for name, value in cache.items()}


def beam_step(
    lprobs: Tensor, scores: Tensor, beam_size: int
) -> Tuple[Tensor, Tensor, Tensor]:
    """
    Args:
        lprobs: ``(batch * beam, V)`` log-probabilities of the next token.
        scores: ``(batch, beam)`` running scores.

    Returns:
        new scores ``(batch, beam)``, token ids ``(batch, beam)``, and the flat parent rows ``(batch * beam,)``.
    """
    batch_size = scores.size(0)
    vocab_size = lprobs.size(-1)
    cand = (scores.view(-1, 1) + lprobs).view(batch_size, beam_size * vocab_size)
    top_scores, top_flat = cand.topk(beam_size, dim=-1)
    beams = torch.div(top_flat, vocab_size, rounding_mode="floor")
    tokens = top_flat.remainder(vocab_size)
    base = torch.arange(batch_size, device=lprobs.device).unsqueeze(1) * beam_size
    parent_rows = (beams + base).view(-1)
    step_lprobs = lprobs.index_select(0, parent_rows).gather(1, tokens.view(-1, 1)).view(batch_size, beam_size)
    assert torch.allclose(step_lprobs + scores.gather(1, beams), top_scores)
    return top_scores, tokens, parent_rows


def last_valid_frame(encoder_out: Tensor, lengths: Tensor) -> Tensor:
    """``encoder_out``: ``(B, T, D)``, ``lengths``: ``(B,)`` -> the state at ``lengths - 1``, ``(B, D)``."""
    index = (lengths - 1).view(-1, 1, 1).expand(-1, 1, encoder_out.size(-1))
    return encoder_out.gather(1, index).squeeze(1)


def ctc_greedy_tokens(log_probs: Tensor, lengths: Tensor, blank: int = 0):
    """Best-path CTC decoding: argmax, drop repeats, drop blanks. ``log_probs``: ``(B, T, V)``."""
    best = log_probs.argmax(dim=-1)
    prev = F.pad(best[:, :-1], (1, 0), value=blank)
    valid = torch.arange(best.size(1), device=best.device)[None, :] < lengths[:, None]
    keep = valid & best.ne(blank) & best.ne(prev)
    return [best[b][keep[b]].tolist() for b in range(best.size(0))]


def copy_distribution(attn: Tensor, src_ids: Tensor, extended_vocab: int) -> Tensor:
    """Project copy attention ``(B, S)`` onto the extended vocabulary; repeated source ids add up."""
    out = attn.new_zeros(attn.size(0), extended_vocab)
    return out.scatter_add(1, src_ids, attn)


if __name__ == "__main__":
    torch.manual_seed(0)

    lprobs = torch.randn(7, 11).log_softmax(-1)
    target = torch.tensor([3, 1, 5, 1, 10, 0, 2])
    loss, nll = label_smoothed_nll_loss(lprobs, target, epsilon=0.1, ignore_index=1)
    ref_nll = sum(-lprobs[i, t].item() for i, t in enumerate(target.tolist()) if t != 1)
    ref_smooth = sum(-lprobs[i].sum().item() for i, t in enumerate(target.tolist()) if t != 1)
    eps_i = 0.1 / 10
    assert abs(nll.item() - ref_nll) < 1e-4
    assert abs(loss.item() - ((0.9 - eps_i) * ref_nll + eps_i * ref_smooth)) < 1e-3

    enc = torch.randn(3, 5, 4)
    expanded = expand_for_beam(enc, beam_size=2)
    for b in range(3):
        for k in range(2):
            assert torch.equal(expanded[b * 2 + k], enc[b])

    lp = torch.randn(3 * 2, 9).log_softmax(-1)
    running = torch.randn(3, 2)
    new_scores, tokens, parents = beam_step(lp, running, beam_size=2)
    for b in range(3):
        cands = sorted(((running[b, k] + lp[b * 2 + k, v]).item(), b * 2 + k, v) for k in range(2) for v in range(9))[::-1]
        for j in range(2):
            assert abs(new_scores[b, j].item() - cands[j][0]) < 1e-5
            assert parents[b * 2 + j].item() == cands[j][1] and tokens[b, j].item() == cands[j][2]

    cache = {"k": torch.randn(6, 2, 3, 4), "v": torch.randn(6, 2, 3, 4)}
    reordered = reorder_incremental_state(cache, parents)
    for i, p in enumerate(parents.tolist()):
        assert torch.equal(reordered["k"][i], cache["k"][p])

    lengths = torch.tensor([5, 2, 4])
    last = last_valid_frame(enc, lengths)
    for b, n in enumerate(lengths.tolist()):
        assert torch.equal(last[b], enc[b, n - 1])

    ctc = torch.randn(2, 8, 5).log_softmax(-1)
    ctc_lens = torch.tensor([8, 6])
    hyps = ctc_greedy_tokens(ctc, ctc_lens)
    for b in range(2):
        path = ctc[b, : ctc_lens[b]].argmax(-1).tolist()
        ref, prev = [], 0
        for p in path:
            if p != 0 and p != prev:
                ref.append(p)
            prev = p
        assert hyps[b] == ref

    attn = torch.softmax(torch.randn(2, 6), -1)
    src_ids = torch.tensor([[4, 7, 4, 9, 2, 4], [3, 3, 8, 1, 5, 8]])
    dist = copy_distribution(attn, src_ids, extended_vocab=12)
    assert torch.allclose(dist[0, 4], attn[0, [0, 2, 5]].sum())
    assert torch.allclose(dist.sum(-1), torch.ones(2))
    print("ok")
