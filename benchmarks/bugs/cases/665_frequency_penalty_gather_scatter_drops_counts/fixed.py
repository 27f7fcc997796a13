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
        counts: Float[torch.Tensor, "batch vocab"] = torch.zeros_like(scores).scatter_add_(
            1, generated, torch.ones_like(generated, dtype=scores.dtype)
        )
        return scores - self.penalty * counts


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
    raw = logits_fn(generated)
    for b in range(generated.size(0)):
        for v in range(vocab):
            n = sum(1 for t in generated[b].tolist() if t == v)
            assert abs(scores[b, v].item() - (raw[b, v].item() - 0.1 * n)) < 1e-6
        assert nxt[b].item() == max(range(vocab), key=lambda v: scores[b, v].item())
    print("ok")
