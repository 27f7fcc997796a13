import torch


class CommentBeam:
    """Beam over edited-comment hypotheses; one decoder step per call."""

    def __init__(self, beam_size, bos_id):
        self.beam_size = beam_size
        # [live, t] token ids of the live hypotheses
        self.live_sents = torch.full((1, 1), bos_id, dtype=torch.long)
        # [live] accumulated log-probabilities
        self.live_scores = torch.zeros(1)

    def step(self, word_log_probs):
        # word_log_probs: [live, vocab]
        vocab_size = word_log_probs.size(1)
        cand = (self.live_scores.unsqueeze(1) + word_log_probs).view(-1)  # [live * vocab]
        k = min(self.beam_size, cand.numel())
        top_scores, top_pos = cand.topk(k)                                 # [k], [k]
        hypo_ids = top_pos / vocab_size                                    # [k] parent hypothesis
        word_ids = top_pos % vocab_size                                    # [k] next word
        parents = self.live_sents[hypo_ids]                                # [k, t]
        self.live_sents = torch.cat([parents, word_ids.unsqueeze(1)], dim=1)  # [k, t + 1]
        self.live_scores = top_scores


def decode(transition_log_probs, beam_size, steps, bos_id=0):
    # transition_log_probs: [vocab, vocab], row = previous token
    beam = CommentBeam(beam_size, bos_id)
    for _ in range(steps):
        last = beam.live_sents[:, -1]                 # [live]
        beam.step(transition_log_probs[last])         # [live, vocab]
    return beam.live_sents, beam.live_scores


if __name__ == "__main__":
    torch.manual_seed(3)
    vocab = 11
    table = torch.log_softmax(torch.randn(vocab, vocab), dim=-1)  # [vocab, vocab]
    sents, scores = decode(table, beam_size=4, steps=3)
    print(sents.tolist())
    print(scores.tolist())
