import torch
import torch.nn as nn
import torch.nn.functional as F
from jaxtyping import Float, Int
from torch import Tensor


class TinyCausalLM(nn.Module):
    def __init__(self, vocab_size: int, dim: int):
        super().__init__()
        self.tok = nn.Embedding(vocab_size, dim)
        self.mix = nn.Linear(2 * dim, dim)
        self.head = nn.Linear(dim, vocab_size)

    def forward(self, tokens: Int[Tensor, "b s"]) -> Float[Tensor, "b s v"]:
        h = self.tok(tokens)
        steps = torch.arange(1, tokens.shape[1] + 1, device=tokens.device).view(1, -1, 1)
        prefix_mean = h.cumsum(1) / steps
        return self.head(torch.tanh(self.mix(torch.cat([h, prefix_mean], dim=-1))))


def logits_to_logprobs(
    logits: Float[Tensor, "b r v"], sequences: Int[Tensor, "b r"], temperature: float = 1.0
) -> Float[Tensor, "b r"]:
    return torch.gather(F.log_softmax(logits / temperature, dim=-1), 2, sequences.unsqueeze(-1)).squeeze(-1)


def response_logprobs(
    model: nn.Module, query_responses: Int[Tensor, "b s"], context_length: int, temperature: float
) -> Float[Tensor, "b r"]:
    logits = model(query_responses)
    response_logits = logits[:, context_length - 1 : -1]
    responses = query_responses[:, context_length:]
    return logits_to_logprobs(response_logits, responses, temperature)


def kl_penalised_rewards(
    scores: Float[Tensor, "b"],
    logprobs: Float[Tensor, "b r"],
    ref_logprobs: Float[Tensor, "b r"],
    kl_coeff: float,
) -> Float[Tensor, "b r"]:
    kl = logprobs - ref_logprobs
    rewards = -kl_coeff * kl
    rewards[:, -1] += scores
    return rewards


if __name__ == "__main__":
    torch.manual_seed(0)
    vocab, ctx, gen = 50, 6, 5
    policy, ref_policy = TinyCausalLM(vocab, 16), TinyCausalLM(vocab, 16)
    query_responses = torch.randint(1, vocab, (3, ctx + gen))
    temperature = 0.7
    with torch.no_grad():
        logprobs = response_logprobs(policy, query_responses, ctx, temperature)
        ref_logprobs = response_logprobs(ref_policy, query_responses, ctx, temperature)
        rewards = kl_penalised_rewards(torch.tensor([1.0, -0.5, 0.2]), logprobs, ref_logprobs, 0.1)

        full = F.log_softmax(policy(query_responses) / temperature, dim=-1)
        expected = torch.tensor([
            [full[b, ctx + t - 1, query_responses[b, ctx + t]].item() for t in range(gen)]
            for b in range(3)
        ])
    assert logprobs.shape == (3, gen)
    assert torch.allclose(logprobs, expected, atol=1e-5)
    assert torch.allclose(rewards[:, :-1], -0.1 * (logprobs - ref_logprobs)[:, :-1])
    print("ok")
