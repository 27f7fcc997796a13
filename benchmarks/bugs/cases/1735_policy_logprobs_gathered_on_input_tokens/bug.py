import torch
from jaxtyping import Float, Int
from torch import Tensor, nn


class TinyCausalLM(nn.Module):
    def __init__(self, vocab_size: int, dim: int):
        super().__init__()
        self.embed = nn.Embedding(vocab_size, dim)
        self.head = nn.Linear(dim, vocab_size)

    def forward(self, input_ids: Int[Tensor, "batch seq"]) -> Float[Tensor, "batch seq vocab"]:
        h = self.embed(input_ids)
        steps = torch.arange(1, input_ids.shape[1] + 1, device=h.device).view(1, -1, 1)
        return self.head(h.cumsum(dim=1) / steps)


def teacher_forced_logits(
    model: TinyCausalLM,
    tokens_prompt: Int[Tensor, "batch prompt"],
    tokens_response: Int[Tensor, "batch response"],
) -> tuple[Float[Tensor, "batch seq vocab"], Int[Tensor, "batch seq"]]:
    tokens_in = torch.cat([tokens_prompt, tokens_response[:, :-1]], dim=1)
    return model(tokens_in), tokens_in


def log_probs_from_logits(
    scores: Float[Tensor, "batch seq vocab"],
    tokens_in: Int[Tensor, "batch seq"],
    tokens_response: Int[Tensor, "batch response"],
) -> Float[Tensor, "batch response"]:
    logits = scores - scores.logsumexp(dim=-1, keepdim=True)
    log_probs = logits.gather(-1, tokens_in.unsqueeze(-1)).squeeze(-1)
    return log_probs


if __name__ == "__main__":
    torch.manual_seed(0)
    model = TinyCausalLM(vocab_size=20, dim=8)
    prompt = torch.randint(0, 20, (2, 5))
    response = torch.randint(0, 20, (2, 4))
    with torch.no_grad():
        scores, tokens_in = teacher_forced_logits(model, prompt, response)
        log_probs = log_probs_from_logits(scores, tokens_in, response)

        ref = torch.empty(2, 4)
        for b in range(2):
            for t in range(4):
                prefix = torch.cat([prompt[b], response[b, :t]]).unsqueeze(0)
                lp = model(prefix)[0, -1].log_softmax(dim=-1)
                ref[b, t] = lp[response[b, t]]
    print("log_probs shape:", tuple(log_probs.shape), "expected:", tuple(ref.shape))
    print("sequence log-likelihood:", [round(v, 3) for v in log_probs.sum(dim=1).tolist()], "reference:", [round(v, 3) for v in ref.sum(dim=1).tolist()])
