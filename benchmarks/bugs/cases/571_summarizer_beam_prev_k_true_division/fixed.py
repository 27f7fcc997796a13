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
        prev_k = torch.div(best_ids, num_words, rounding_mode="floor")
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
    beam = Beam(size=4, vocab_size=50)
    g = torch.Generator().manual_seed(0)
    for _ in range(3):
        scores_before = beam.scores.clone()
        logp = torch.randn(4, 50, generator=g).log_softmax(-1)
        attn = torch.rand(4, 7, generator=g).softmax(-1)
        best_ids = beam.advance(logp, attn)
        for i in range(4):
            flat_id = int(best_ids[i])
            k, w = flat_id // 50, flat_id % 50
            assert int(beam.prev_ks[-1][i]) == k and int(beam.next_ys[-1][i]) == w
            assert torch.isclose(beam.scores[i], scores_before[k] + logp[k, w])
            assert torch.equal(beam.attn[-1][i], attn[k])
    print("ok")
