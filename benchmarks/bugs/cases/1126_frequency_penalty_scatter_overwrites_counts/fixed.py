from dataclasses import dataclass

import torch


@dataclass
class PenaltyConfig:
    frequency_penalty: float = 0.0
    presence_penalty: float = 0.0


class FrequencyPresencePenalty:
    """OpenAI-style frequency and presence penalties for batched decoding.

    For every token already generated, its logit is lowered by
    ``frequency_penalty * count + presence_penalty``, where ``count`` is how many
    times the token occurs in the sequence.
    """

    def __init__(self, configs):
        self.freq = torch.tensor([c.frequency_penalty for c in configs]).unsqueeze(1)
        self.pres = torch.tensor([c.presence_penalty for c in configs]).unsqueeze(1)

    def __call__(self, input_ids, scores):
        """Apply the penalties.

        Args:
            input_ids (LongTensor): shape (batch, seq_len), tokens generated so far.
            scores (FloatTensor): shape (batch, vocab), next-token logits.

        Returns:
            FloatTensor: shape (batch, vocab), penalized logits.
        """
        counts = torch.zeros_like(scores).scatter_add_(1, input_ids, torch.ones_like(input_ids, dtype=scores.dtype))
        return scores - counts * self.freq - (counts > 0).to(scores.dtype) * self.pres


def reference(configs, input_ids, scores):
    out = scores.clone()
    for b, cfg in enumerate(configs):
        seen = {}
        for t in input_ids[b].tolist():
            seen[t] = seen.get(t, 0) + 1
        for t, c in seen.items():
            out[b, t] = scores[b, t] - cfg.frequency_penalty * c - cfg.presence_penalty
    return out


if __name__ == "__main__":
    torch.manual_seed(0)
    configs = [PenaltyConfig(0.5, 0.1), PenaltyConfig(1.0, 0.0)]
    processor = FrequencyPresencePenalty(configs)
    input_ids = torch.tensor([[3, 3, 3, 7, 1], [2, 5, 5, 2, 2]])
    scores = torch.randn(2, 10)
    out = processor(input_ids, scores)
    assert torch.allclose(out, reference(configs, input_ids, scores))
    print("ok")
