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
        prev_k = torch.div(best_scores_id, num_words, rounding_mode="floor")  # (beam,)
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


def reference_decode(decoder_cell, out_proj, h0, beam_size=3, steps=4):
    vocab = out_proj.out_features
    hs = [h0[0].clone() for _ in range(beam_size)]
    scores = [0.0] * beam_size
    words = [1] * beam_size
    for step in range(steps):
        new_h = []
        cand = []
        for k in range(beam_size):
            inp = F.one_hot(torch.tensor([words[k]]), vocab).float()
            hk = decoder_cell(inp, hs[k].unsqueeze(0))[0]
            new_h.append(hk)
            lk = F.log_softmax(out_proj(hk), dim=-1)
            if step == 0 and k > 0:
                continue
            for w in range(vocab):
                base = scores[k] if step > 0 else 0.0
                cand.append((base + lk[w].item(), k * vocab + w, k, w))
        cand.sort(key=lambda c: (-c[0], c[1]))
        top = cand[:beam_size]
        scores = [c[0] for c in top]
        words = [c[3] for c in top]
        hs = [new_h[c[2]] for c in top]
    return scores, words


if __name__ == "__main__":
    torch.manual_seed(0)
    hidden, vocab = 16, 20
    cell = torch.nn.GRUCell(vocab, hidden)
    proj = torch.nn.Linear(hidden, vocab)
    h0 = torch.randn(1, hidden)
    with torch.no_grad():
        beam = decode(cell, proj, h0)
        ref_scores, ref_words = reference_decode(cell, proj, h0)
    assert torch.allclose(beam.scores, torch.tensor(ref_scores), atol=1e-5)
    assert beam.next_ys[-1].tolist() == ref_words
    print("ok")
