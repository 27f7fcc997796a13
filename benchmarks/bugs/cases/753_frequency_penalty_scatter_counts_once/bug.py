import torch
from jaxtyping import Float, Int


class FrequencyPenaltyProcessor:
    """OpenAI-style frequency penalty: each earlier occurrence of a token lowers its logit."""

    def __init__(self, frequency_penalty: float):
        self.frequency_penalty = frequency_penalty

    def __call__(
        self,
        generated_ids: Int[torch.Tensor, "batch steps"],
        scores: Float[torch.Tensor, "batch vocab"],
    ) -> Float[torch.Tensor, "batch vocab"]:
        step_penalty = torch.full(generated_ids.shape, self.frequency_penalty, dtype=scores.dtype)
        total: Float[torch.Tensor, "batch vocab"] = torch.zeros_like(scores)
        total.scatter_(1, generated_ids, step_penalty)
        return scores - total


def sample_step(processor, generated_ids, logits):
    adjusted = processor(generated_ids, logits)
    return adjusted.argmax(dim=-1), adjusted


if __name__ == "__main__":
    vocab = 12
    logits = torch.zeros(2, vocab)
    logits[:, 4] = 2.0
    logits[:, 6] = 1.5
    generated = torch.tensor([[4, 4, 4, 9], [6, 1, 6, 2]])
    proc = FrequencyPenaltyProcessor(frequency_penalty=0.5)
    next_ids, adjusted = sample_step(proc, generated, logits)
    print("logit of token 4 (seen 3x) in row 0:", adjusted[0, 4].item())
    print("next ids:", next_ids.tolist())
