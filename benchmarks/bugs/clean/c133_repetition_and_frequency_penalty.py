import torch


class RepetitionPenaltyProcessor:
    """CTRL-style repetition penalty: every token already generated is penalised once."""

    def __init__(self, penalty):
        self.penalty = penalty

    def __call__(self, input_ids, scores):
        # input_ids: [B, T] tokens so far (repeats allowed), scores: [B, V] next-token logits
        score = torch.gather(scores, 1, input_ids)  # [B, T]
        score = torch.where(score < 0, score * self.penalty, score / self.penalty)
        # a repeated id writes the same value each time, so the overwrite is harmless
        return scores.scatter(1, input_ids, score)


class FrequencyPenaltyProcessor:
    """OpenAI-style frequency/presence penalty: logit -= frequency * count + presence * (count > 0)."""

    def __init__(self, frequency, presence):
        self.frequency = frequency
        self.presence = presence

    def __call__(self, output_ids, scores):
        # output_ids: [B, T] generated tokens, scores: [B, V]
        counts = torch.zeros_like(scores).scatter_add_(1, output_ids, torch.ones_like(output_ids, dtype=scores.dtype))
        return scores - self.frequency * counts - self.presence * (counts > 0).to(scores.dtype)


if __name__ == "__main__":
    torch.manual_seed(0)
    vocab = 12
    input_ids = torch.tensor([[3, 5, 3, 3, 7], [1, 1, 2, 9, 1]])  # [2, 5]
    scores = torch.randn(2, vocab)  # [2, 12]

    rep = RepetitionPenaltyProcessor(1.3)(input_ids, scores)
    freq = FrequencyPenaltyProcessor(0.5, 0.2)(input_ids, scores)
    for b in range(2):
        seen = input_ids[b].tolist()
        for v in range(vocab):
            s = scores[b, v].item()
            expected_rep = (s * 1.3 if s < 0 else s / 1.3) if v in seen else s
            assert abs(rep[b, v].item() - expected_rep) < 1e-6
            n = seen.count(v)
            expected_freq = s - 0.5 * n - (0.2 if n else 0.0)
            assert abs(freq[b, v].item() - expected_freq) < 1e-6
    print("ok")
