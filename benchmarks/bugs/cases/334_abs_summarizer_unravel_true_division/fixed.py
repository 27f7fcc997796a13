import torch


def unravel_beam_ids(topk_ids, vocab_size):
    """Split flat ids over (beam_size * vocab_size) into origin beam and token.

    Args:
        topk_ids (`torch.LongTensor` of shape `(batch_size, beam_size)`):
            Indices into the flattened `(beam_size * vocab_size)` scores.
        vocab_size (`int`): Size of the output vocabulary.

    Returns:
        `tuple(torch.LongTensor)` of two `(batch_size, beam_size)` tensors: beam origin and token id.
    """
    return topk_ids // vocab_size, topk_ids % vocab_size


class Translator:
    """Beam search over an abstractive summarizer.

    Args:
        beam_size (`int`): Number of hypotheses kept per article.
        alpha (`float`): Length-penalty exponent.
    """

    def __init__(self, beam_size, alpha=0.6):
        self.beam_size = beam_size
        self.alpha = alpha

    def advance(self, step, log_probs, topk_log_probs, alive_seq, dec_states):
        """One decoding step.

        Args:
            log_probs (`torch.FloatTensor` of shape `(batch_size * beam_size, vocab_size)`)
            topk_log_probs (`torch.FloatTensor` of shape `(batch_size, beam_size)`)
            alive_seq (`torch.LongTensor` of shape `(batch_size * beam_size, step)`)
            dec_states (`dict[str, torch.FloatTensor]`): cached states, each `(batch_size * beam_size, ...)`.
        """
        vocab_size = log_probs.size(-1)
        batch_size = topk_log_probs.size(0)
        log_probs = log_probs + topk_log_probs.view(-1).unsqueeze(1)
        length_penalty = ((5.0 + (step + 1)) / 6.0) ** self.alpha
        curr_scores = (log_probs / length_penalty).reshape(-1, self.beam_size * vocab_size)
        topk_scores, topk_ids = curr_scores.topk(self.beam_size, dim=-1)
        topk_log_probs = topk_scores * length_penalty
        topk_beam_index, topk_ids = unravel_beam_ids(topk_ids, vocab_size)
        beam_offset = torch.arange(0, batch_size * self.beam_size, step=self.beam_size)
        select_indices = (topk_beam_index + beam_offset.unsqueeze(1)).view(-1)
        alive_seq = torch.cat([alive_seq.index_select(0, select_indices), topk_ids.view(-1, 1)], -1)
        dec_states = {k: v.index_select(0, select_indices) for k, v in dec_states.items()}
        return topk_log_probs, alive_seq, dec_states


if __name__ == "__main__":
    torch.manual_seed(0)
    translator = Translator(beam_size=4)
    log_probs = torch.randn(2 * 4, 30).log_softmax(-1)
    topk_log_probs = torch.randn(2, 4)
    alive_seq = torch.randint(0, 30, (8, 3))
    states = {"src_mem": torch.randn(8, 6, 5), "prev_h": torch.randn(8, 5)}
    scores, seq, states_out = translator.advance(3, log_probs, topk_log_probs, alive_seq, states)
    for b in range(2):
        cands = sorted(
            ((log_probs[b * 4 + k, v] + topk_log_probs[b, k], k, v) for k in range(4) for v in range(30)),
            key=lambda c: -c[0].item(),
        )
        for j, (score, k, v) in enumerate(cands[:4]):
            assert torch.allclose(scores[b, j], score, atol=1e-5)
            assert seq[b * 4 + j].tolist() == alive_seq[b * 4 + k].tolist() + [v]
            assert torch.equal(states_out["prev_h"][b * 4 + j], states["prev_h"][b * 4 + k])
    print("ok")
