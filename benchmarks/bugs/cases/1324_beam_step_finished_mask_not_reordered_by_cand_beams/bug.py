import torch


def beam_step(lprobs, scores, finished, beam_size, eos):
    # lprobs:   [B * K, V]  next-token log-probs for every live beam
    # scores:   [B, K]      cumulative score of every beam
    # finished: [B, K]      beams whose hypothesis was finalized at an earlier step
    bsz = scores.size(0)
    vocab = lprobs.size(-1)
    cand_size = 2 * beam_size
    cand = scores.unsqueeze(-1) + lprobs.view(bsz, beam_size, vocab)  # [B, K, V]
    cand_scores, flat_idx = cand.view(bsz, -1).topk(cand_size, dim=1)  # [B, 2K]
    cand_beams = torch.div(flat_idx, vocab, rounding_mode="floor")  # [B, 2K]
    cand_tokens = flat_idx.fmod(vocab)  # [B, 2K]

    # a candidate is dropped if it ends in eos or continues a finalized beam
    blocked = cand_tokens.eq(eos)  # [B, 2K]
    blocked[:, :beam_size] |= finished

    offsets = torch.arange(cand_size).unsqueeze(0)  # [1, 2K]
    active_mask = blocked.long() * cand_size + offsets  # [B, 2K]
    _, active_hypos = active_mask.topk(beam_size, dim=1, largest=False)  # [B, K]

    new_beams = cand_beams.gather(1, active_hypos)  # [B, K]
    new_tokens = cand_tokens.gather(1, active_hypos)  # [B, K]
    new_scores = cand_scores.gather(1, active_hypos)  # [B, K]
    return new_beams, new_tokens, new_scores


def reference_step(lprobs, scores, finished, beam_size, eos):
    bsz, vocab = scores.size(0), lprobs.size(-1)
    out = []
    for b in range(bsz):
        cands = []
        for k in range(beam_size):
            for v in range(vocab):
                cands.append((scores[b, k].item() + lprobs[b * beam_size + k, v].item(), k, v))
        cands.sort(key=lambda c: -c[0])
        kept = [(k, v) for s, k, v in cands[: 2 * beam_size] if v != eos and not finished[b, k]]
        out.append(kept[:beam_size])
    return out


if __name__ == "__main__":
    torch.manual_seed(3)
    bsz, beam_size, vocab, eos = 2, 2, 6, 0
    lprobs = torch.randn(bsz * beam_size, vocab).log_softmax(-1)
    scores = torch.tensor([[-1.0, -0.3], [-0.3, -1.0]])
    finished = torch.tensor([[True, False], [False, True]])
    beams, tokens, _ = beam_step(lprobs, scores, finished, beam_size, eos)
    got = [list(zip(beams[b].tolist(), tokens[b].tolist())) for b in range(bsz)]
    print("selected (parent beam, token):", got)
    print("reference                    :", reference_step(lprobs, scores, finished, beam_size, eos))
