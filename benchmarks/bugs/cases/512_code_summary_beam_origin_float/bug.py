import torch
import torch.nn as nn


class Beam:
    """Beam bookkeeping for one source snippet.

    Args:
        size: number of hypotheses kept per step.
        sos, eos: special token ids.
    """

    def __init__(self, size, sos, eos):
        self.size = size
        self.eos = eos
        self.scores = torch.zeros(size)
        self.prev_ks = []
        self.next_ys = [torch.full((size,), sos, dtype=torch.long)]

    def get_current_origin(self):
        """Returns:
            LongTensor of shape (size,): parent hypothesis of each live beam.
        """
        return self.prev_ks[-1]

    def advance(self, word_logprobs):
        """Args:
            word_logprobs: FloatTensor of shape (size, vocab) for the last step.
        """
        num_words = word_logprobs.size(1)
        if self.prev_ks:
            beam_lk = word_logprobs + self.scores.unsqueeze(1)
        else:
            beam_lk = word_logprobs[0:1]
        best_scores, best_ids = beam_lk.view(-1).topk(self.size)
        self.scores = best_scores
        prev_k = best_ids / num_words
        self.prev_ks.append(prev_k)
        self.next_ys.append(best_ids - prev_k * num_words)


class TinyDecoder(nn.Module):
    def __init__(self, vocab, hidden):
        super().__init__()
        self.embed = nn.Embedding(vocab, hidden)
        self.out = nn.Linear(hidden, vocab)

    def forward(self, prefix_ids, context):
        """prefix_ids: (beam, t) LongTensor; context: (beam, hidden). Returns (beam, vocab) log-probs."""
        h = self.embed(prefix_ids).mean(1) + context
        return self.out(h).log_softmax(-1)


def generate(decoder, context, beam_size=4, max_len=5, sos=1, eos=2):
    beam = Beam(beam_size, sos, eos)
    context = context.expand(beam_size, -1)
    prefix = torch.full((beam_size, 1), sos, dtype=torch.long)
    for _ in range(max_len):
        beam.advance(decoder(prefix, context))
        origin = beam.get_current_origin()
        prefix = prefix.index_select(0, origin)
        prefix = torch.cat([prefix, beam.next_ys[-1].unsqueeze(1)], dim=1)
    return prefix[0]


if __name__ == "__main__":
    torch.manual_seed(0)
    decoder = TinyDecoder(vocab=50, hidden=16)
    summary = generate(decoder, torch.randn(1, 16))
    print("summary ids:", summary.tolist())
