import torch
from jaxtyping import Float, Int


class FrequencyPenaltyProcessor:
    """OpenAI-style frequency penalty: logit -= penalty * count(token in output)."""

    def __init__(self, penalty: float):
        self.penalty = penalty

    def token_counts(
        self, output_ids: Int[torch.Tensor, "seq"], vocab_size: int
    ) -> Float[torch.Tensor, "vocab"]:
        counts = torch.zeros(vocab_size)
        counts[output_ids] += 1
        return counts

    def __call__(
        self, output_ids: Int[torch.Tensor, "batch seq"], logits: Float[torch.Tensor, "batch vocab"]
    ) -> Float[torch.Tensor, "batch vocab"]:
        vocab = logits.size(-1)
        counts = torch.stack([self.token_counts(row, vocab) for row in output_ids])
        return logits - self.penalty * counts


if __name__ == "__main__":
    torch.manual_seed(0)
    vocab = 12
    generated = torch.tensor([[3, 3, 3, 7, 1, 3], [5, 2, 5, 5, 9, 0]])
    logits = torch.zeros(2, vocab)
    proc = FrequencyPenaltyProcessor(penalty=0.5)
    out = proc(generated, logits)
    print("penalty on token 3 (row 0):", -out[0, 3].item(), "expected", 0.5 * 4)
    print("penalty on token 5 (row 1):", -out[1, 5].item(), "expected", 0.5 * 3)
