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
        prev_k = best_ids / self.vocab_size
        self.prev_ks.append(prev_k)
        self.next_ys.append(best_ids - prev_k * self.vocab_size)
        return hidden.index_select(0, prev_k)


def main():
    torch.manual_seed(0)
    beam = Beam(size=3, vocab_size=20)
    hidden = torch.randn(3, 8)
    for _ in range(3):
        logprobs = torch.log_softmax(torch.randn(3, 20), dim=-1)
        hidden = beam.advance(logprobs, hidden)
    print("parents per step:", [k.tolist() for k in beam.prev_ks])


if __name__ == "__main__":
    main()
