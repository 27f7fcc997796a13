from typing import Tuple

import torch
import torch.nn as nn
from jaxtyping import Float, Int64
from torch import Tensor


def sigmoid_topk_routing(
    logits: Float[Tensor, "tokens experts"],
    topk: int,
    expert_bias: Float[Tensor, "experts"] = None,
) -> Tuple[Float[Tensor, "tokens topk"], Int64[Tensor, "tokens topk"]]:
    scores = torch.sigmoid(logits.float())
    if expert_bias is not None:
        _, top_indices = torch.topk(scores + expert_bias, k=topk, dim=1)
        scores = torch.gather(scores, dim=1, index=top_indices)
    else:
        scores, top_indices = torch.topk(scores, k=topk, dim=1)
    if topk > 1:
        scores = scores / scores.sum(dim=-1, keepdim=True).clamp_min(1e-20)
    return scores.to(logits.dtype), top_indices


class BiasBalancedRouter(nn.Module):
    """Aux-loss-free load balancing: a per-expert bias steers the top-k choice only."""

    def __init__(self, hidden: int, num_experts: int, topk: int, bias_update_rate: float = 1e-3):
        super().__init__()
        self.gate = nn.Linear(hidden, num_experts, bias=False)
        self.topk = topk
        self.bias_update_rate = bias_update_rate
        self.register_buffer("expert_bias", torch.zeros(num_experts))

    def forward(self, hidden: Float[Tensor, "tokens hidden"]):
        logits = self.gate(hidden)
        probs, top_indices = sigmoid_topk_routing(logits, self.topk, self.expert_bias)
        return probs, top_indices

    @torch.no_grad()
    def update_bias(self, top_indices: Int64[Tensor, "tokens topk"]):
        load = torch.bincount(top_indices.flatten(), minlength=self.expert_bias.numel()).float()
        self.expert_bias += self.bias_update_rate * torch.sign(load.mean() - load)


if __name__ == "__main__":
    torch.manual_seed(0)
    router = BiasBalancedRouter(hidden=32, num_experts=8, topk=2)
    router.expert_bias.copy_(torch.linspace(-0.3, 0.3, 8))
    tokens = torch.randn(16, 32)
    probs, top_indices = router(tokens)

    with torch.no_grad():
        affinity = torch.sigmoid(router.gate(tokens))
    ref = torch.empty(16, 2)
    for t in range(16):
        chosen = [affinity[t, e].item() for e in top_indices[t].tolist()]
        ref[t] = torch.tensor([c / sum(chosen) for c in chosen])
    biased = affinity + router.expert_bias
    for t in range(16):
        best = sorted(range(8), key=lambda e: -biased[t, e].item())[:2]
        assert top_indices[t].tolist() == best
    assert torch.allclose(probs, ref, atol=1e-6)
    print("ok")
