import torch
import torch.nn as nn


class Beam:
    """Keeps the live hypotheses of one source sentence during beam search."""

    def __init__(self, beam_size, vocab_size, src_len, bos_id):
        self.beam_size = beam_size
        self.vocab_size = vocab_size
        self.scores = torch.zeros(beam_size)
        self.prev_ks = []
        self.next_ys = [torch.full((beam_size,), bos_id, dtype=torch.long)]
        self.attentions = torch.zeros(beam_size, 0, src_len)

    def current_tokens(self):
        return self.next_ys[-1]

    def advance(self, log_probs, attention):
        """Extend every hypothesis by one token.

        Args:
            log_probs (Tensor): (beam_size, vocab_size) next-token log-probabilities.
            attention (Tensor): (beam_size, src_len) attention of the current step.

        Returns:
            Tensor: (beam_size,) index of the parent hypothesis of every new beam.
        """
        total = (self.scores.unsqueeze(1) + log_probs).view(-1)  # (beam_size * vocab_size,)
        top_scores, top_score_ids = total.topk(self.beam_size)
        prev_k = top_score_ids / self.vocab_size  # (beam_size,)
        self.prev_ks.append(prev_k)
        self.next_ys.append(top_score_ids - prev_k * self.vocab_size)
        self.scores = top_scores

        history = torch.cat([self.attentions, attention.unsqueeze(1)], dim=1)  # (beam_size, t + 1, src_len)
        self.attentions = history.index_select(0, prev_k)
        return prev_k

    def best_hypothesis(self):
        k = int(self.scores.argmax())
        tokens = []
        for t in range(len(self.prev_ks) - 1, -1, -1):
            tokens.append(int(self.next_ys[t + 1][k]))
            k = int(self.prev_ks[t][k])
        return tokens[::-1], self.attentions[int(self.scores.argmax())]


class ToyDecoder(nn.Module):
    def __init__(self, vocab_size, d_model, src_len):
        super().__init__()
        self.embed = nn.Embedding(vocab_size, d_model)
        self.out = nn.Linear(d_model, vocab_size)
        self.attn = nn.Linear(d_model, src_len)

    def forward(self, last_tokens):
        h = self.embed(last_tokens)
        return self.out(h).log_softmax(-1), self.attn(h).softmax(-1)


if __name__ == "__main__":
    torch.manual_seed(0)
    decoder = ToyDecoder(vocab_size=20, d_model=8, src_len=6)
    beam = Beam(beam_size=3, vocab_size=20, src_len=6, bos_id=1)
    with torch.no_grad():
        for _ in range(4):
            log_probs, attention = decoder(beam.current_tokens())
            beam.advance(log_probs, attention)
    tokens, attn = beam.best_hypothesis()
    print("best:", tokens, "attention history:", tuple(attn.shape))
