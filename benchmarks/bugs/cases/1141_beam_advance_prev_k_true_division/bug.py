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
        prev_k = best_ids / self.vocab_size
        self.prev_ks.append(prev_k)
        self.next_ys.append(best_ids - prev_k * self.vocab_size)
        self.attn.append(attn_out.index_select(0, prev_k))

    def current_words(self):
        return self.next_ys[-1]


def main():
    torch.manual_seed(0)
    beam_size, vocab, src_len = 3, 7, 5
    beam = Beam(beam_size, vocab)
    beam.scores = torch.tensor([0.0, -0.5, -1.0])
    word_lk = torch.log_softmax(torch.randn(beam_size, vocab), dim=-1)
    attn = torch.softmax(torch.randn(beam_size, src_len), dim=-1)
    beam.advance(word_lk, attn)
    print("back-pointers:", beam.prev_ks[-1].tolist())
    print("words:", beam.current_words().tolist())


if __name__ == "__main__":
    main()
