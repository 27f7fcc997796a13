import torch


class Beam:
    """Beam search bookkeeping for one dialogue context.

    Args:
        size (int): beam width.
        vocab_size (int): number of output words.
    """

    def __init__(self, size, vocab_size):
        self.size = size
        self.vocab_size = vocab_size
        self.scores = torch.zeros(size)
        self.prev_ks = []
        self.next_ys = [torch.zeros(size, dtype=torch.long)]

    def advance(self, word_logprobs, hidden):
        """Extend every hypothesis by one word.

        Args:
            word_logprobs (torch.FloatTensor of shape `(beam, vocab)`): log p(w | hypothesis).
            hidden (torch.FloatTensor of shape `(beam, hidden_size)`): decoder state per hypothesis.

        Returns:
            torch.FloatTensor of shape `(beam, hidden_size)`: decoder states reordered to the
            surviving hypotheses.
        """
        if self.prev_ks:
            beam_lk = word_logprobs + self.scores.unsqueeze(1).expand_as(word_logprobs)
        else:
            beam_lk = word_logprobs[0]
        flat = beam_lk.view(-1)
        best_scores, best_ids = flat.topk(self.size, 0, True, True)
        self.scores = best_scores
        prev_k = best_ids // self.vocab_size
        self.prev_ks.append(prev_k)
        self.next_ys.append(best_ids - prev_k * self.vocab_size)
        return hidden.index_select(0, prev_k)


def main():
    torch.manual_seed(0)
    beam = Beam(size=3, vocab_size=20)
    hidden = torch.randn(3, 8)
    steps = [torch.log_softmax(torch.randn(3, 20), dim=-1) for _ in range(3)]
    ref_hidden = [row.clone() for row in hidden]
    ref_scores = [0.0, 0.0, 0.0]
    for step, logprobs in enumerate(steps):
        hidden = beam.advance(logprobs, hidden)
        rows = [0] if step == 0 else [0, 1, 2]
        cands = []
        for k in rows:
            for w in range(20):
                base = 0.0 if step == 0 else ref_scores[k]
                cands.append((base + float(logprobs[k, w]), k, w))
        cands.sort(key=lambda c: -c[0])
        best = cands[:3]
        assert [k for _, k, _ in best] == beam.prev_ks[-1].tolist()
        assert [w for _, _, w in best] == beam.next_ys[-1].tolist()
        ref_scores = [s for s, _, _ in best]
        ref_hidden = [ref_hidden[k].clone() for _, k, _ in best]
        assert torch.equal(hidden, torch.stack(ref_hidden))
    print("ok")


if __name__ == "__main__":
    main()
