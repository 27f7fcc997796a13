import torch
import torch.nn as nn
from jaxtyping import Float, Int
from torch import Tensor


class BigramLM(nn.Module):
    """logits[t] is the model's prediction for the token at position t + 1."""

    def __init__(self, n_vocab: int):
        super().__init__()
        self.table = nn.Embedding(n_vocab, n_vocab)

    def forward(self, tokens: Int[Tensor, "seq"]) -> Float[Tensor, "seq vocab"]:
        return self.table(tokens)


def echo_token_logprobs(
    logits: Float[Tensor, "seq vocab"], tokens: Int[Tensor, "seq"]
) -> Float[Tensor, "seq_minus_1"]:
    """Log-probability of every prompt token after the first, as returned with echo=True."""
    logprobs = torch.log_softmax(logits, dim=-1)
    return logprobs[:-1].gather(-1, tokens[1:].unsqueeze(-1)).squeeze(-1)


if __name__ == "__main__":
    torch.manual_seed(0)
    model = BigramLM(n_vocab=12)
    with torch.no_grad():
        model.table.weight.copy_(torch.randn(12, 12) * 2)
        model.table.weight[3, 7] = 8.0  # after token 3, token 7 is almost certain
    prompt = torch.tensor([1, 3, 7, 3, 7, 2])
    token_logprobs = echo_token_logprobs(model(prompt), prompt)
    print("logprob of each '7' that follows a '3':", [round(token_logprobs[i].item(), 3) for i in (1, 3)])
    import math
    w = model.table.weight.detach()
    for t in range(1, prompt.numel()):
        row = w[prompt[t - 1]].tolist()
        lse = math.log(sum(math.exp(v) for v in row))
        assert abs(token_logprobs[t - 1].item() - (row[prompt[t].item()] - lse)) < 1e-4
    print("ok")
