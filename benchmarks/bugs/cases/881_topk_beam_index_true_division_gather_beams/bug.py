import torch


def _gather_beams(nested, beam_indices, batch_size, new_beam_size):
    # nested:       (batch, beam, ...) per-beam state
    # beam_indices: (batch, new_beam)  parent beam of every kept candidate
    batch_pos = torch.arange(batch_size).unsqueeze(1).expand(batch_size, new_beam_size)
    return nested[batch_pos, beam_indices]  # (batch, new_beam, ...)


def _topk_candidates(log_probs, alive_log_probs, beam_size):
    # log_probs:       (batch, beam, vocab)
    # alive_log_probs: (batch, beam)
    batch_size, _, vocab_size = log_probs.shape
    scores = log_probs + alive_log_probs.unsqueeze(2)  # (batch, beam, vocab)
    flat = scores.reshape(batch_size, -1)  # (batch, beam * vocab)
    topk_scores, topk_ids = flat.topk(2 * beam_size, dim=1)  # (batch, 2 * beam)
    topk_beam_index = topk_ids / vocab_size
    topk_ids = topk_ids % vocab_size
    return topk_scores, topk_ids, topk_beam_index


def grow_alive(alive_seq, log_probs, alive_log_probs, beam_size):
    # alive_seq: (batch, beam, cur_len) token history of every live beam
    batch_size = alive_seq.size(0)
    topk_scores, topk_ids, topk_beam_index = _topk_candidates(log_probs, alive_log_probs, beam_size)
    topk_seq = _gather_beams(alive_seq, topk_beam_index, batch_size, 2 * beam_size)
    topk_seq = torch.cat([topk_seq, topk_ids.unsqueeze(2)], dim=2)  # (batch, 2 * beam, cur_len + 1)
    return topk_seq, topk_scores


if __name__ == "__main__":
    torch.manual_seed(0)
    batch, beam, vocab, cur_len = 2, 3, 11, 4
    alive_seq = torch.randint(0, vocab, (batch, beam, cur_len))
    log_probs = torch.log_softmax(torch.randn(batch, beam, vocab), dim=-1)
    alive_log_probs = torch.randn(batch, beam)
    seq, scores = grow_alive(alive_seq, log_probs, alive_log_probs, beam)
    print(seq.shape, scores[0].tolist())
