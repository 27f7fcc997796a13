import torch


class Beam:
    def __init__(self, start_id, end_id, unk_id, hidden_state, context, beam_size):
        h, c = hidden_state                                             #(n_hid,)
        self.tokens = torch.full((beam_size, 1), start_id, dtype=torch.long)   #(beam, t)
        self.scores = torch.zeros(beam_size, 1)                         #(beam, 1)
        self.scores[1:] = -1e9                                          #only first beam is live at t=0
        self.hid_h = h.unsqueeze(0).repeat(beam_size, 1)                #(beam, n_hid)
        self.hid_c = c.unsqueeze(0).repeat(beam_size, 1)                #(beam, n_hid)
        self.context = context.unsqueeze(0).repeat(beam_size, 1)        #(beam, 2*n_hid)
        self.end_id, self.unk_id, self.done = end_id, unk_id, False

    def advance(self, prob_dist, hidden_state, context):
        """prob_dist: (beam, n_extended_vocab)"""
        n_extended_vocab = prob_dist.size(1)
        h, c = hidden_state                                             #(beam, n_hid)
        log_probs = torch.log(prob_dist + 1e-12)                        #(beam, n_extended_vocab)
        scores = log_probs + self.scores                                #(beam, n_extended_vocab)
        scores = scores.view(-1, 1)                                     #(beam*n_extended_vocab, 1)
        best_scores, best_scores_id = torch.topk(scores, k=self.tokens.size(0), dim=0)  #(beam, 1)
        self.scores = best_scores                                       #(beam, 1)
        beams_order = best_scores_id.squeeze(1) // n_extended_vocab     #(beam,)
        best_words = best_scores_id % n_extended_vocab                  #(beam, 1)
        self.hid_h = h[beams_order]                                     #(beam, n_hid)
        self.hid_c = c[beams_order]                                     #(beam, n_hid)
        self.context = context[beams_order]                             #(beam, 2*n_hid)
        self.tokens = torch.cat([self.tokens[beams_order], best_words], dim=1)  #(beam, t+1)
        if int(best_words[0, 0]) == self.end_id:
            self.done = True


if __name__ == "__main__":
    torch.manual_seed(0)
    n_hid, vocab, beam_size = 6, 20, 4
    beam = Beam(1, 2, 0, (torch.randn(n_hid), torch.randn(n_hid)), torch.randn(2 * n_hid), beam_size)
    hyps = [([1], 0.0)] + [([1], -1e9)] * (beam_size - 1)
    for step in range(3):
        prob_dist = torch.softmax(torch.randn(beam_size, vocab), dim=1)
        h, c = torch.randn(beam_size, n_hid), torch.randn(beam_size, n_hid)
        ctx = torch.randn(beam_size, 2 * n_hid)
        beam.advance(prob_dist, (h, c), ctx)
        cands = []
        for b in range(beam_size):
            for w in range(vocab):
                score = hyps[b][1] + float(torch.log(prob_dist[b, w] + 1e-12))
                cands.append((score, b, w))
        cands.sort(key=lambda x: -x[0])
        top = cands[:beam_size]
        hyps = [(hyps[b][0] + [w], score) for score, b, w in top]
        for k, (score, b, w) in enumerate(top):
            assert torch.equal(beam.hid_h[k], h[b]) and torch.equal(beam.context[k], ctx[b])
    assert beam.tokens.tolist() == [toks for toks, _ in hyps]
    print("ok")
