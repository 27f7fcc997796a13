import torch
import torch.nn.functional as F
from jaxtyping import Float, Int
from torch import Tensor


def top_p_filter(logits: Float[Tensor, "batch vocab"], top_p: float) -> Float[Tensor, "batch vocab"]:
    sorted_logits, sorted_indices = torch.sort(logits, descending=True, dim=-1)
    cum_probs = torch.cumsum(F.softmax(sorted_logits, dim=-1), dim=-1)
    sorted_indices_to_remove = cum_probs > top_p
    indices_to_remove = sorted_indices_to_remove.scatter(-1, sorted_indices, sorted_indices_to_remove)
    return logits.masked_fill(indices_to_remove, float("-inf"))


def logits_to_probs(
    logits: Float[Tensor, "batch vocab"], temperature: float = 0.7, top_p: float = 0.8
) -> Float[Tensor, "batch vocab"]:
    logits = top_p_filter(logits / max(temperature, 1e-5), top_p)
    return F.softmax(logits, dim=-1)


def sample_codes(logits: Float[Tensor, "batch vocab"], **kw) -> Int[Tensor, "batch"]:
    probs = logits_to_probs(logits, **kw)
    return torch.multinomial(probs, 1).squeeze(-1)


if __name__ == "__main__":
    probs = torch.tensor([[0.50, 0.35, 0.10, 0.05], [0.95, 0.03, 0.01, 0.01]])
    logits = probs.log()
    out = logits_to_probs(logits, temperature=1.0, top_p=0.9)
    print("kept tokens per row:", [(row > 0).nonzero().flatten().tolist() for row in out])
    print("filtered probs:", out)
