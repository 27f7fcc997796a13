import torch
from jaxtyping import Float, Int
from torch import Tensor


class FrequencyPenaltyLogitsProcessor:
    def __init__(self, penalty: Float[Tensor, "batch"]):
        self.penalty = penalty.unsqueeze(1)  # [batch, 1]

    def __call__(
        self, input_ids: Int[Tensor, "batch seq"], scores: Float[Tensor, "batch vocab"]
    ) -> Float[Tensor, "batch vocab"]:
        token_freq = torch.zeros_like(scores)
        # every occurrence of a token in the stream so far adds the request's penalty once
        token_freq.scatter_add_(1, input_ids, self.penalty.expand_as(input_ids).to(scores.dtype))
        return scores - token_freq


if __name__ == "__main__":
    torch.manual_seed(0)
    input_ids = torch.randint(0, 20, (3, 9))
    scores = torch.randn(3, 20)
    penalty = torch.tensor([0.5, 1.0, 0.2])
    out = FrequencyPenaltyLogitsProcessor(penalty)(input_ids, scores)
    ref = scores.clone()
    for b in range(3):
        for t in input_ids[b].tolist():
            ref[b, t] -= penalty[b]
    assert torch.allclose(out, ref)
    print("ok")
