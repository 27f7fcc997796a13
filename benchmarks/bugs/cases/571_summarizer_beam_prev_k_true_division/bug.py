import torch


class Beam:
    """Beam search state for one source sequence (OpenNMT-style).

    Args:
        size: beam width K.
        vocab_size: number of target words V.
    """

    def __init__(self, size, vocab_size, bos=1):
        self.size = size
        self.vocab_size = vocab_size
        self.scores = torch.zeros(size)
        self.prev_ks = []
        self.next_ys = [torch.full((size,), bos, dtype=torch.long)]
        self.attn = []

    def advance(self, word_probs, attn_out):
        """Extend every hypothesis by one word.

        Args:
            word_probs: log-probabilities, shape (K, V).
            attn_out: copy attention of each hypothesis, shape (K, src_len).
        """
        num_words = word_probs.size(1)
        beam_lk = word_probs + self.scores.unsqueeze(1)
        flat = beam_lk.view(-1)
        best_scores, best_ids = flat.topk(self.size, 0, True, True)
        self.scores = best_scores
        prev_k = best_ids / num_words
        self.prev_ks.append(prev_k)
        self.next_ys.append(best_ids - prev_k * num_words)
        self.attn.append(attn_out.index_select(0, prev_k))
        return best_ids


def run_decoder_steps(beam, steps, src_len, seed=0):
    g = torch.Generator().manual_seed(seed)
    for _ in range(steps):
        logits = torch.randn(beam.size, beam.vocab_size, generator=g)
        attn = torch.rand(beam.size, src_len, generator=g).softmax(-1)
        beam.advance(logits.log_softmax(-1), attn)
    return beam


if __name__ == "__main__":
    beam = run_decoder_steps(Beam(size=4, vocab_size=50), steps=3, src_len=7)
    print([k.tolist() for k in beam.prev_ks])
