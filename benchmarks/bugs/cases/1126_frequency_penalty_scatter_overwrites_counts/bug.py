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
        score = torch.gather(scores, 1, input_ids)
        score = score - self.freq - self.pres
        return scores.scatter(1, input_ids, score)


if __name__ == "__main__":
    torch.manual_seed(0)
    configs = [PenaltyConfig(0.5, 0.1), PenaltyConfig(1.0, 0.0)]
    processor = FrequencyPresencePenalty(configs)
    input_ids = torch.tensor([[3, 3, 3, 7, 1], [2, 5, 5, 2, 2]])
    scores = torch.randn(2, 10)
    out = processor(input_ids, scores)
    print("penalty on token 3 (seen 3x):", (scores[0, 3] - out[0, 3]).item())
    print("penalty on token 2 (seen 3x):", (scores[1, 2] - out[1, 2]).item())
