import torch


def beam_step(alive_seq, log_probs, alive_log_probs, beam_size):
    """One step of batched beam search.

    Args:
        alive_seq: (batch * beam, t) token ids of the live hypotheses.
        log_probs: (batch * beam, vocab) next-token log-probabilities.
        alive_log_probs: (batch, beam) accumulated scores.
    Returns:
        new alive_seq (batch * beam, t + 1) and new scores (batch, beam).
    """
    vocab_size = log_probs.size(-1)
    batch_size = alive_log_probs.size(0)
    curr_scores = log_probs.view(batch_size, beam_size, vocab_size) + alive_log_probs.unsqueeze(-1)
    curr_scores = curr_scores.reshape(batch_size, beam_size * vocab_size)
    topk_scores, topk_ids = curr_scores.topk(beam_size, dim=-1)

    topk_beam_index = topk_ids.div(vocab_size)
    topk_ids = topk_ids.fmod(vocab_size)

    beam_offset = torch.arange(0, batch_size * beam_size, step=beam_size)
    batch_index = topk_beam_index + beam_offset.unsqueeze(1)
    select_indices = batch_index.view(-1)
    alive_seq = torch.cat([alive_seq.index_select(0, select_indices), topk_ids.view(-1, 1)], -1)
    return alive_seq, topk_scores


if __name__ == "__main__":
    torch.manual_seed(0)
    batch, beam, vocab = 2, 3, 11
    seq = torch.randint(0, vocab, (batch * beam, 4))
    lp = torch.randn(batch * beam, vocab).log_softmax(-1)
    scores = torch.zeros(batch, beam)
    new_seq, new_scores = beam_step(seq, lp, scores, beam)
    print(new_seq)
