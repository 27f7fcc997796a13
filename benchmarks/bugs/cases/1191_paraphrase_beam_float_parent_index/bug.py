import torch


class TxtBeam:
    """Keeps the partial paraphrases of one source sentence during decoding."""

    def __init__(self, beam_size, bos_id, eos_id):
        self.beam_size = beam_size
        self.eos_id = eos_id
        self._txt_seq = torch.full((beam_size, 1), bos_id, dtype=torch.long)  # [K, t]
        self._scores = torch.zeros(beam_size)                                 # [K]

    def forward(self, txt_prob):
        # txt_prob: [K, V] log-probs of the next token for every live hypothesis
        vocab = txt_prob.size(1)
        cand = (self._scores.unsqueeze(1) + txt_prob).view(-1)               # [K*V]
        best_scores, best_ids = cand.topk(self.beam_size)                     # [K], [K]
        prev_beam_indices = best_ids / vocab                                  # [K] parent hypothesis
        next_words = best_ids - prev_beam_indices.long() * vocab              # [K] token id
        sorted_prev_word_seq = self._txt_seq[prev_beam_indices]               # [K, t]
        self._txt_seq = torch.cat([sorted_prev_word_seq, next_words.unsqueeze(1)], dim=1)
        self._scores = best_scores
        return self._txt_seq


def decode(step_logprobs, beam_size=3, bos_id=1, eos_id=2):
    beam = TxtBeam(beam_size, bos_id, eos_id)
    for txt_prob in step_logprobs:
        seq = beam.forward(txt_prob)
    return seq, beam._scores


if __name__ == "__main__":
    torch.manual_seed(0)
    K, V, T = 3, 11, 4
    steps = [torch.log_softmax(torch.randn(K, V), dim=-1) for _ in range(T)]
    seqs, scores = decode(steps, beam_size=K)
    print(seqs)
    print(scores)
