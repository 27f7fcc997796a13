import torch
import torch.nn as nn
import torch.nn.functional as F
from jaxtyping import Float, Int
from torch import Tensor

PAD_TOKEN_ID = 0


def logprobs_of_labels(logits: Float[Tensor, "batch seq vocab"], labels: Int[Tensor, "batch seq"]) -> Float[Tensor, "batch seq"]:
    """Log probabilities of the labels; logits[:, t] scores labels[:, t]."""
    logprobs = F.log_softmax(logits, dim=-1)
    logprobs_labels = torch.gather(logprobs, dim=-1, index=labels.unsqueeze(-1))
    return logprobs_labels.squeeze(-1)


class CausalLMWithValueHead(nn.Module):
    def __init__(self, vocab_size: int, hidden: int):
        super().__init__()
        self.embed = nn.Embedding(vocab_size, hidden)
        self.rnn = nn.GRU(hidden, hidden, batch_first=True)
        self.lm_head = nn.Linear(hidden, vocab_size)
        self.v_head = nn.Linear(hidden, 1)

    def forward(self, tokens: Int[Tensor, "batch seq"]) -> tuple[Float[Tensor, "batch seq vocab"], Float[Tensor, "batch seq"]]:
        hidden, _ = self.rnn(self.embed(tokens))
        return self.lm_head(hidden), self.v_head(hidden).squeeze(-1)


def ppo_policy_loss(
    logprobs: Float[Tensor, "batch resp"],
    old_logprobs: Float[Tensor, "batch resp"],
    advantages: Float[Tensor, "batch resp"],
    mask: Int[Tensor, "batch resp"],
    cliprange: float = 0.2,
) -> Float[Tensor, ""]:
    n = mask.sum()
    ratio = torch.exp((logprobs - old_logprobs) * mask)
    pg_loss1 = -advantages * ratio
    pg_loss2 = -advantages * torch.clamp(ratio, 1.0 - cliprange, 1.0 + cliprange)
    return torch.sum(torch.max(pg_loss1, pg_loss2) * mask) / n


def loss(model: CausalLMWithValueHead, batch: dict) -> Float[Tensor, ""]:
    query_tensors, response_tensors = batch["query_tensors"], batch["response_tensors"]
    response_length = response_tensors.shape[1]
    tokens = torch.cat((query_tensors, response_tensors), dim=1)
    attention_mask = tokens.not_equal(PAD_TOKEN_ID).long()
    logits, _ = model(tokens)
    # logprobs[:, i] is the logprob at which tokens[:, i + 1] was sampled
    logprobs = logprobs_of_labels(logits[:, :-1, :], tokens[:, 1:])
    start = query_tensors.shape[1] - 1
    end = start + response_length
    logprobs, mask = logprobs[:, start:end], attention_mask[:, start:end]
    return ppo_policy_loss(logprobs, batch["logprobs"], batch["advantages"], mask)


if __name__ == "__main__":
    torch.manual_seed(0)
    model = CausalLMWithValueHead(vocab_size=12, hidden=8)
    batch = {
        "query_tensors": torch.tensor([[3, 5, 7], [4, 4, 9]]),
        "response_tensors": torch.tensor([[6, 2, 0, 0], [8, 1, 10, 11]]),
        "logprobs": torch.full((2, 4), -2.3),
        "advantages": torch.tensor([[0.5, 0.5, 0.5, 0.5], [-1.0, 0.2, 0.3, 0.4]]),
    }
    with torch.no_grad():
        value = loss(model, batch).item()
        tokens = torch.cat((batch["query_tensors"], batch["response_tensors"]), dim=1)
        logp = F.log_softmax(model(tokens)[0], dim=-1)
    terms = []
    for b in range(2):
        for j, tok in enumerate(batch["response_tensors"][b].tolist()):
            if tok == PAD_TOKEN_ID:
                continue
            ratio = torch.exp(logp[b, 2 + j, tok] - batch["logprobs"][b, j])
            adv = batch["advantages"][b, j]
            terms.append(torch.max(-adv * ratio, -adv * ratio.clamp(0.8, 1.2)).item())
    print("policy loss:", round(value, 5))
    print("loss over the sampled response tokens:", round(sum(terms) / len(terms), 5))
