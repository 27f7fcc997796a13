import torch
import torch.nn as nn
from jaxtyping import Float, Int
from torch import Tensor


class TinyCausalLM(nn.Module):
    def __init__(self, vocab: int, dim: int):
        super().__init__()
        self.embed = nn.Embedding(vocab, dim)
        self.rnn = nn.GRU(dim, dim, batch_first=True)
        self.lm_head = nn.Linear(dim, vocab)

    def forward(self, tokens: Int[Tensor, "batch seq"]) -> Float[Tensor, "batch seq vocab"]:
        hidden, _ = self.rnn(self.embed(tokens))
        return self.lm_head(hidden)


def log_prob_of_chosen_token(
    logits: Float[Tensor, "batch seq vocab"], tokens: Int[Tensor, "batch seq"]
) -> Float[Tensor, "batch seq"]:
    logp = logits.log_softmax(dim=-1)
    return logp.gather(-1, tokens.unsqueeze(-1)).squeeze(-1)


def prefill_prompt_logprobs(
    model: TinyCausalLM, input_tokens: Int[Tensor, "batch seq"], true_length: Int[Tensor, " batch"]
) -> Float[Tensor, "batch seq"]:
    """log P(token[t] | tokens[:t]) for every prompt position; NaN for BOS and padding."""
    flat_logits = model(input_tokens)
    prompt_logp = log_prob_of_chosen_token(flat_logits[:, :-1], input_tokens[:, 1:])
    prompt_logp = torch.cat([prompt_logp.new_full((input_tokens.size(0), 1), float("nan")), prompt_logp], dim=1)
    positions = torch.arange(input_tokens.size(1))
    invalid = (positions[None, :] >= true_length[:, None]) | (positions[None, :] == 0)
    return prompt_logp.masked_fill(invalid, float("nan"))


if __name__ == "__main__":
    torch.manual_seed(0)
    model = TinyCausalLM(vocab=40, dim=16)
    tokens = torch.randint(1, 40, (2, 10))
    true_length = torch.tensor([10, 7])
    scores = prefill_prompt_logprobs(model, tokens, true_length)
    logp = model(tokens).log_softmax(-1)
    ref = torch.full((2, 10), float("nan"))
    for b in range(2):
        for t in range(1, int(true_length[b])):
            ref[b, t] = logp[b, t - 1, tokens[b, t]]
    valid = ~ref.isnan()
    assert torch.equal(scores.isnan(), ref.isnan())
    assert torch.allclose(scores[valid], ref[valid], atol=1e-6)
    print("ok")
