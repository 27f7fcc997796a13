import torch
import torch.nn.functional as F
from jaxtyping import Float, Int
from torch import Tensor


def top_p_filter(logits: Float[Tensor, "batch vocab"], top_p: float) -> Float[Tensor, "batch vocab"]:
    sorted_logits, sorted_indices = torch.sort(logits, descending=True, dim=-1)
    cum_probs = torch.cumsum(F.softmax(sorted_logits, dim=-1), dim=-1)
    sorted_indices_to_remove = cum_probs > top_p
    # keep the token that crosses top_p: shift the mask right by one
    sorted_indices_to_remove[..., 1:] = sorted_indices_to_remove[..., :-1].clone()
    sorted_indices_to_remove[..., 0] = False
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


def reference(prob_rows, top_p):
    result = []
    for row in prob_rows:
        order = sorted(range(len(row)), key=lambda i: -row[i])
        kept, mass = [], 0.0
        for i in order:
            kept.append(i)
            mass += row[i]
            if mass >= top_p:
                break
        z = sum(row[i] for i in kept)
        result.append([row[i] / z if i in kept else 0.0 for i in range(len(row))])
    return result


if __name__ == "__main__":
    probs = torch.tensor([[0.50, 0.35, 0.10, 0.05], [0.95, 0.03, 0.01, 0.01]])
    out = logits_to_probs(probs.log(), temperature=1.0, top_p=0.9)
    ref = torch.tensor(reference(probs.tolist(), 0.9))
    assert torch.allclose(out, ref, atol=1e-5), (out, ref)
    torch.manual_seed(0)
    assert sample_codes(torch.randn(3, 16)).shape == (3,)
    print("ok")
