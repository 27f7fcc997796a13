import torch
import torch.nn.functional as F


class Beam:
    """Keeps the K best partial hypotheses of one source sentence."""

    def __init__(self, size, bos_id=1):
        self.size = size
        self.scores = torch.zeros(size)          # (beam,)
        self.prev_ks = []                        # list of (beam,) back-pointers
        self.next_ys = [torch.full((size,), bos_id, dtype=torch.long)]

    def get_current_origin(self):
        return self.prev_ks[-1]

    def advance(self, word_lk):
        # word_lk: (beam, vocab) log-probs for the next word
        num_words = word_lk.size(1)
        if self.prev_ks:
            beam_lk = word_lk + self.scores.unsqueeze(1)   # (beam, vocab)
        else:
            beam_lk = word_lk[0].unsqueeze(0)               # first step: one live hypothesis
        flat_beam_lk = beam_lk.view(-1)                     # (beam * vocab,)
        best_scores, best_scores_id = flat_beam_lk.topk(self.size, 0, True, True)
        self.scores = best_scores

        # best_scores_id indexes the flattened beam x word array:
        # recover which beam and which word each score came from
        prev_k = best_scores_id / num_words                 # (beam,)
        self.prev_ks.append(prev_k)
        self.next_ys.append(best_scores_id - prev_k * num_words)


def decode(decoder_cell, out_proj, h0, beam_size=3, steps=4):
    beam = Beam(beam_size)
    h = h0.expand(beam_size, -1).contiguous()               # (beam, hidden)
    for _ in range(steps):
        inp = F.one_hot(beam.next_ys[-1], out_proj.out_features).float()
        h = decoder_cell(inp, h)                            # (beam, hidden)
        word_lk = F.log_softmax(out_proj(h), dim=-1)        # (beam, vocab)
        beam.advance(word_lk)
        origin = beam.get_current_origin()                  # (beam,)
        h = h.index_select(0, origin)                       # reorder the decoder state
    return beam


if __name__ == "__main__":
    torch.manual_seed(0)
    hidden, vocab = 16, 20
    cell = torch.nn.GRUCell(vocab, hidden)
    proj = torch.nn.Linear(hidden, vocab)
    beam = decode(cell, proj, torch.randn(1, hidden))
    print("best scores:", beam.scores)
