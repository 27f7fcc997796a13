import torch


class Beam:
    """Beam over one source sentence for a question-generation decoder."""

    def __init__(self, size, bos=1):
        self.size = size
        self.scores = torch.zeros(size)          # (K,)
        self.prev_ks = []                        # list of (K,) back-pointers
        self.next_ys = [torch.full((size,), bos, dtype=torch.long)]
        self.hidden = torch.zeros(size, 8)       # (K, H) decoder state per hypothesis

    def advance(self, word_logprobs):
        # word_logprobs: (K, V)
        num_words = word_logprobs.size(1)
        if self.prev_ks:
            beam_lk = word_logprobs + self.scores.unsqueeze(1)   # (K, V)
        else:
            beam_lk = word_logprobs[0:1]                         # (1, V) first step
        flat = beam_lk.reshape(-1)                               # (K*V,)
        best_scores, best_ids = flat.topk(self.size, 0, True, True)
        self.scores = best_scores
        prev_k = best_ids / num_words                            # (K,) parent beam
        self.prev_ks.append(prev_k)
        self.next_ys.append(best_ids - prev_k * num_words)
        self.hidden = self.hidden.index_select(0, prev_k)        # (K, H)
        return self.next_ys[-1]


def run(steps=3, beam_size=4, vocab=11):
    torch.manual_seed(0)
    beam = Beam(beam_size)
    beam.hidden = torch.randn(beam_size, 8)
    for _ in range(steps):
        logits = torch.randn(beam_size, vocab)
        ys = beam.advance(torch.log_softmax(logits, -1))
    return beam, ys


if __name__ == "__main__":
    beam, ys = run()
    print("last tokens", ys.tolist())
