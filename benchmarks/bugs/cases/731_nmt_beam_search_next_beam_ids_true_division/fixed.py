import torch


def tile_batch(x, beam_size):
    # x: [batch, ...] -> [batch * beam, ...]
    return x.unsqueeze(1).expand(x.size(0), beam_size, *x.shape[1:]).reshape(-1, *x.shape[1:])


def reorder_states(states, beam_ids, batch_size, beam_size):
    # states: [batch * beam, hidden]; beam_ids: [batch, beam]
    offsets = torch.arange(batch_size).unsqueeze(1) * beam_size
    flat_ids = (beam_ids + offsets).view(-1)  # [batch * beam, ]
    return states.index_select(0, flat_ids)


def beam_step(scores, log_probs, states, beam_size):
    # scores: [batch, beam]; log_probs: [batch, beam, vocab]
    batch_size, _, vocab_size = log_probs.shape
    total = (scores.unsqueeze(-1) + log_probs).view(batch_size, -1)  # [batch, beam * vocab]
    new_scores, flat_ids = total.topk(beam_size, dim=-1)  # [batch, beam]
    next_beam_ids = torch.div(flat_ids, vocab_size, rounding_mode="floor")  # [batch, beam]
    next_word_ids = flat_ids % vocab_size  # [batch, beam]
    new_states = reorder_states(states, next_beam_ids, batch_size, beam_size)
    return new_scores, next_word_ids, new_states


if __name__ == "__main__":
    torch.manual_seed(0)
    batch, beam, vocab, hidden = 2, 3, 11, 5
    enc = torch.randn(batch, hidden)
    states = tile_batch(enc, beam) + torch.randn(batch * beam, hidden)
    scores = torch.zeros(batch, beam)
    log_probs = torch.randn(batch, beam, vocab).log_softmax(-1)
    new_scores, words, new_states = beam_step(scores, log_probs, states, beam)
    total = (scores.unsqueeze(-1) + log_probs).view(batch, -1)
    _, flat = total.topk(beam, dim=-1)
    for b in range(batch):
        for k in range(beam):
            f = int(flat[b, k])
            src = b * beam + f // vocab
            assert int(words[b, k]) == f % vocab
            assert torch.equal(new_states[b * beam + k], states[src])
    print("ok")
