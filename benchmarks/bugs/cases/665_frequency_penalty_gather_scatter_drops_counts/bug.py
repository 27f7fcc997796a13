import torch
from jaxtyping import Float, Int


class FrequencyPenaltyProcessor:
    """OpenAI-style frequency penalty: logit -= penalty * (times the token was already generated)."""

    def __init__(self, penalty: float):
        self.penalty = penalty

    def __call__(
        self,
        generated: Int[torch.Tensor, "batch steps"],
        scores: Float[torch.Tensor, "batch vocab"],
    ) -> Float[torch.Tensor, "batch vocab"]:
        seen: Float[torch.Tensor, "batch steps"] = torch.gather(scores, 1, generated)
        penalised = seen - self.penalty
        return scores.scatter(1, generated, penalised)


def greedy_step(logits_fn, processor, generated):
    scores = logits_fn(generated)
    scores = processor(generated, scores)
    return scores.argmax(dim=-1), scores


if __name__ == "__main__":
    torch.manual_seed(0)
    vocab = 12
    bias = torch.linspace(2.0, 0.0, vocab)

    def logits_fn(ids):
        return bias.expand(ids.size(0), vocab).clone()

    generated = torch.tensor([[0, 0, 0, 3, 0, 5], [1, 2, 3, 4, 5, 6]])
    nxt, scores = greedy_step(logits_fn, FrequencyPenaltyProcessor(0.1), generated)
    print("token 0 logit after penalty:", scores[0, 0].item(), "next tokens:", nxt.tolist())
