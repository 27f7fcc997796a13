"""Alignment utilities shared by the CTC and transducer recipes.

All functions work on padded batches; lengths are given explicitly.
"""
from typing import List, Tuple

import torch
import torch.nn.functional as F


def rnnt_target_and_blank_logprobs(
    am: torch.Tensor,
    lm: torch.Tensor,
    symbols: torch.Tensor,
    blank_id: int = 0,
) -> Tuple[torch.Tensor, torch.Tensor]:
    """Log-probs of emitting the next target symbol and of emitting blank on the full (T, S+1) lattice.

    Args:
        am: (B, T, V) encoder projections.
        lm: (B, S + 1, V) prediction network projections (position 0 is the start state).
        symbols: (B, S) target token ids.
        blank_id: id of the blank symbol.

    Returns:
        px: (B, T, S) log p(symbols[s] | t, s).
        py: (B, T, S + 1) log p(blank | t, s).
    """
    B, T, V = am.shape
    S = symbols.size(1)
    logits = am.unsqueeze(2) + lm.unsqueeze(1)  # (B, T, S + 1, V)
    logp = logits.log_softmax(dim=-1)
    index = symbols.view(B, 1, S, 1).expand(B, T, S, 1)
    px = torch.gather(logp[:, :, :S, :], dim=3, index=index).squeeze(3)  # (B, T, S)
    py = logp[..., blank_id]  # (B, T, S + 1)
    return px, py


def ctc_greedy_collapse(log_probs: torch.Tensor, lengths: torch.Tensor, blank_id: int = 0) -> List[List[int]]:
    """Best-path decoding.

    Args:
        log_probs: (B, T, V).
        lengths: (B,) number of valid frames.
    """
    best = log_probs.argmax(dim=-1)  # (B, T)
    prev = F.pad(best[:, :-1], (1, 0), value=blank_id)  # token of the previous frame
    frame_ids = torch.arange(best.size(1), device=best.device)
    keep = (best != prev) & (best != blank_id) & (frame_ids[None, :] < lengths[:, None])
    return [best[b][keep[b]].tolist() for b in range(best.size(0))]


def ctc_forced_align(log_probs: torch.Tensor, targets: torch.Tensor, blank_id: int = 0) -> torch.Tensor:
    """Viterbi alignment of one utterance.

    Args:
        log_probs: (T, V) frame log-probabilities.
        targets: (L,) token ids without blanks.

    Returns:
        (T,) index into the blank-extended target sequence for every frame.
    """
    T = log_probs.size(0)
    ext = targets.new_full((2 * targets.numel() + 1,), blank_id)
    ext[1::2] = targets
    S = ext.numel()
    emit = log_probs.index_select(1, ext)  # (T, S)

    neg_inf = torch.finfo(log_probs.dtype).min
    skip_ok = torch.zeros(S, dtype=torch.bool, device=ext.device)
    skip_ok[2:] = (ext[2:] != blank_id) & (ext[2:] != ext[:-2])

    alpha = torch.full((S,), neg_inf, dtype=log_probs.dtype, device=log_probs.device)
    alpha[0] = emit[0, 0]
    if S > 1:
        alpha[1] = emit[0, 1]
    backptr = torch.zeros(T, S, dtype=torch.long, device=ext.device)
    states = torch.arange(S, device=ext.device)
    for t in range(1, T):
        stay = alpha
        step = F.pad(alpha[:-1], (1, 0), value=neg_inf)
        skip = torch.where(skip_ok, F.pad(alpha[:-2], (2, 0), value=neg_inf), torch.full_like(alpha, neg_inf))
        cand = torch.stack([stay, step, skip])  # (3, S)
        best, which = cand.max(dim=0)
        backptr[t] = states - which
        alpha = best + emit[t]

    last = S - 1 if S == 1 or alpha[S - 1] >= alpha[S - 2] else S - 2
    path = torch.empty(T, dtype=torch.long, device=ext.device)
    path[T - 1] = last
    for t in range(T - 1, 0, -1):
        path[t - 1] = backptr[t].gather(0, path[t : t + 1]).squeeze(0)
    return path


def pool_frames_per_token(frames: torch.Tensor, path: torch.Tensor) -> torch.Tensor:
    """Mean of the encoder frames aligned to each non-blank state of the extended sequence.

    Args:
        frames: (T, D) encoder output.
        path: (T,) state index per frame from ctc_forced_align.

    Returns:
        (L, D) one vector per target token.
    """
    num_tokens = (int(path.max()) + 1) // 2
    token_of_frame = (path - 1).div(2, rounding_mode="floor")  # blanks map to the token before them
    is_token = path % 2 == 1
    seg = token_of_frame[is_token]  # (T',)
    src = frames[is_token]  # (T', D)
    out = frames.new_zeros(num_tokens, frames.size(1))
    out.scatter_reduce_(0, seg.unsqueeze(1).expand(-1, frames.size(1)), src, reduce="mean", include_self=False)
    return out


if __name__ == "__main__":
    torch.manual_seed(0)

    # transducer lattice terms
    B, T, S, V = 2, 5, 3, 7
    am, lm = torch.randn(B, T, V), torch.randn(B, S + 1, V)
    symbols = torch.randint(1, V, (B, S))
    px, py = rnnt_target_and_blank_logprobs(am, lm, symbols)
    for b in range(B):
        for t in range(T):
            for s in range(S + 1):
                lp = (am[b, t] + lm[b, s]).log_softmax(-1)
                assert torch.isclose(py[b, t, s], lp[0], atol=1e-5)
                if s < S:
                    assert torch.isclose(px[b, t, s], lp[symbols[b, s]], atol=1e-5)

    # greedy CTC
    lp = torch.randn(2, 12, 6).log_softmax(-1)
    lengths = torch.tensor([12, 8])
    hyps = ctc_greedy_collapse(lp, lengths)
    for b in range(2):
        ref, prev = [], 0
        for t in range(int(lengths[b])):
            tok = int(lp[b, t].argmax())
            if tok != prev and tok != 0:
                ref.append(tok)
            prev = tok
        assert hyps[b] == ref

    # forced alignment on a peaky emission that spells the target
    targets = torch.tensor([3, 3, 5, 2])
    frame_tokens = [0, 3, 3, 0, 3, 5, 5, 0, 2, 2, 0]
    emission = torch.full((len(frame_tokens), 6), -8.0)
    for t, tok in enumerate(frame_tokens):
        emission[t, tok] = 0.0
    emission = emission.log_softmax(-1)
    path = ctc_forced_align(emission, targets)
    ext = [0, 3, 0, 3, 0, 5, 0, 2, 0]
    assert [ext[s] for s in path.tolist()] == frame_tokens
    assert all(b - a in (0, 1, 2) for a, b in zip(path.tolist(), path.tolist()[1:]))

    frames = torch.randn(len(frame_tokens), 4)
    pooled = pool_frames_per_token(frames, path)
    ref = torch.zeros(4, 4)
    cnt = [0] * 4
    for t, s in enumerate(path.tolist()):
        if s % 2 == 1:
            ref[(s - 1) // 2] += frames[t]
            cnt[(s - 1) // 2] += 1
    for j in range(4):
        ref[j] /= cnt[j]
    assert torch.allclose(pooled, ref, atol=1e-6)
    print("ok")
