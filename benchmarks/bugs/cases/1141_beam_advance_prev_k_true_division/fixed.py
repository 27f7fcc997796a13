import torch


class Beam:
    """Beam search state for one source sentence.

    Args:
        size: beam width K.
        vocab_size: number of target words V.

    Attributes:
        scores: FloatTensor [K], running log-prob of each hypothesis.
        prev_ks: list of LongTensor [K], back-pointer of each hypothesis per step.
        next_ys: list of LongTensor [K], word chosen by each hypothesis per step.
        attn: list of FloatTensor [K, src_len], attention of each hypothesis per step.
    """

    def __init__(self, size, vocab_size):
        self.size = size
        self.vocab_size = vocab_size
        self.scores = torch.zeros(size)
        self.prev_ks = []
        self.next_ys = [torch.zeros(size, dtype=torch.long)]
        self.attn = []

    def advance(self, word_lk, attn_out):
        """Extend every hypothesis by one word.

        Args:
            word_lk: FloatTensor [K, V], log-probs of the next word per hypothesis.
            attn_out: FloatTensor [K, src_len], attention of each current hypothesis.
        """
        beam_lk = word_lk + self.scores.unsqueeze(1)
        flat_beam_lk = beam_lk.view(-1)
        best_scores, best_ids = flat_beam_lk.topk(self.size, 0, True, True)
        self.scores = best_scores
        prev_k = torch.div(best_ids, self.vocab_size, rounding_mode="floor")
        self.prev_ks.append(prev_k)
        self.next_ys.append(best_ids - prev_k * self.vocab_size)
        self.attn.append(attn_out.index_select(0, prev_k))

    def current_words(self):
        return self.next_ys[-1]


def reference_step(scores, word_lk, attn, k):
    cands = []
    for b in range(word_lk.shape[0]):
        for w in range(word_lk.shape[1]):
            cands.append((float(scores[b] + word_lk[b, w]), b, w))
    cands.sort(key=lambda c: -c[0])
    top = cands[:k]
    return [c[1] for c in top], [c[2] for c in top], [attn[c[1]].tolist() for c in top]


def main():
    torch.manual_seed(0)
    beam_size, vocab, src_len = 3, 7, 5
    beam = Beam(beam_size, vocab)
    beam.scores = torch.tensor([0.0, -0.5, -1.0])
    word_lk = torch.log_softmax(torch.randn(beam_size, vocab), dim=-1)
    attn = torch.softmax(torch.randn(beam_size, src_len), dim=-1)
    ref_prev, ref_words, ref_attn = reference_step(beam.scores.clone(), word_lk, attn, beam_size)
    beam.advance(word_lk, attn)
    assert beam.prev_ks[-1].tolist() == ref_prev
    assert beam.current_words().tolist() == ref_words
    assert torch.allclose(beam.attn[-1], torch.tensor(ref_attn))
    print("ok")


if __name__ == "__main__":
    main()
