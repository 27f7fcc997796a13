import torch as T
import torch.nn as nn
import torch.nn.functional as F

BEAM_SIZE = 3
EPS = 1e-12


class Beam(object):
    def __init__(self, start_id, end_id, hidden_state, context):
        h, c = hidden_state                                             # (n_hid,)
        self.tokens = T.LongTensor(BEAM_SIZE, 1).fill_(start_id)         # (beam, t) after t steps
        self.scores = T.FloatTensor(BEAM_SIZE, 1).fill_(-30)             # (beam, 1)
        self.scores[0][0] = 0                                            # every beam starts from the first one
        self.hid_h = h.unsqueeze(0).repeat(BEAM_SIZE, 1)                 # (beam, n_hid)
        self.hid_c = c.unsqueeze(0).repeat(BEAM_SIZE, 1)                 # (beam, n_hid)
        self.context = context.unsqueeze(0).repeat(BEAM_SIZE, 1)         # (beam, 2*n_hid)
        self.end_id = end_id
        self.done = False

    def advance(self, prob_dist, hidden_state, context):
        """prob_dist: (beam, n_extended_vocab); hidden_state: tuple of (beam, n_hid); context: (beam, 2*n_hid)"""
        n_extended_vocab = prob_dist.size(1)
        h, c = hidden_state
        log_probs = T.log(prob_dist + EPS)                               # (beam, n_extended_vocab)
        scores = (log_probs + self.scores).view(-1, 1)                   # (beam*n_extended_vocab, 1)
        best_scores, best_scores_id = T.topk(scores, k=BEAM_SIZE, dim=0)
        self.scores = best_scores                                        # (beam, 1); sorted
        beams_order = best_scores_id.squeeze(1) // n_extended_vocab       # (beam,); sorted
        best_words = best_scores_id % n_extended_vocab                   # (beam, 1); sorted
        self.hid_h = h[beams_order]                                      # (beam, n_hid); sorted
        self.hid_c = c[beams_order]                                      # (beam, n_hid); sorted
        self.context = context[beams_order]                              # (beam, 2*n_hid); sorted
        self.tokens = T.cat([self.tokens[beams_order], best_words], dim=1)  # (beam, t+1)
        if best_words[0][0] == self.end_id:
            self.done = True


class Decoder(nn.Module):
    def __init__(self, vocab_size, n_emb, n_hid):
        super().__init__()
        self.embeds = nn.Embedding(vocab_size, n_emb)
        self.cell = nn.LSTMCell(n_emb + 2 * n_hid, n_hid)
        self.out = nn.Linear(3 * n_hid, vocab_size)

    def forward(self, x_t, s_t, ct_e):
        h, c = self.cell(T.cat([self.embeds(x_t), ct_e], dim=1), s_t)
        return F.softmax(self.out(T.cat([h, ct_e], dim=1)), dim=1), (h, c)


def decode_step(model, beam):
    x_t = beam.tokens[:, -1]
    prob, (h, c) = model(x_t, (beam.hid_h, beam.hid_c), beam.context)
    beam.advance(prob, (h, c), beam.context)
    return prob, h


def reference_step(prob, h, scores, tokens):
    candidates = []
    for b in range(prob.size(0)):
        for w in range(prob.size(1)):
            candidates.append((T.log(prob[b, w] + EPS).item() + scores[b, 0].item(), b, w))
    candidates.sort(key=lambda item: -item[0])
    picked = candidates[:BEAM_SIZE]
    new_tokens = [tokens[b].tolist() + [w] for _, b, w in picked]
    return [s for s, _, _ in picked], new_tokens, T.stack([h[b] for _, b, _ in picked])


if __name__ == "__main__":
    T.manual_seed(0)
    model = Decoder(vocab_size=11, n_emb=6, n_hid=5)
    beam = Beam(start_id=1, end_id=2, hidden_state=(T.randn(5), T.randn(5)), context=T.randn(10))
    with T.no_grad():
        for _ in range(3):
            scores, tokens = beam.scores.clone(), beam.tokens.clone()
            prob, h = decode_step(model, beam)
            ref_scores, ref_tokens, ref_h = reference_step(prob, h, scores, tokens)
            assert beam.tokens.tolist() == ref_tokens
            assert T.allclose(beam.scores.squeeze(1), T.tensor(ref_scores), atol=1e-5)
            assert T.allclose(beam.hid_h, ref_h)
    print("tokens:", beam.tokens.tolist())
    print("ok")
