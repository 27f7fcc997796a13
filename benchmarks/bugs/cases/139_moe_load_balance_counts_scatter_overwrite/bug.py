import torch
import torch.nn as nn
from jaxtyping import Float, Int
from torch import Tensor


class TopKRouter(nn.Module):
    def __init__(self, d_model: int, num_experts: int, top_k: int = 2, aux_coef: float = 0.01):
        super().__init__()
        self.gate = nn.Linear(d_model, num_experts, bias=False)
        self.num_experts = num_experts
        self.top_k = top_k
        self.aux_coef = aux_coef

    def tokens_per_expert(self, expert_idx: Int[Tensor, "tokens top_k"]) -> Float[Tensor, "experts"]:
        counts = torch.zeros(self.num_experts, device=expert_idx.device)
        flat = expert_idx.reshape(-1)
        counts.scatter_(0, flat, torch.ones_like(flat, dtype=counts.dtype))
        return counts

    def forward(self, x: Float[Tensor, "tokens d_model"]):
        probs = self.gate(x).softmax(dim=-1)  # router probabilities
        weights, expert_idx = probs.topk(self.top_k, dim=-1)
        weights = weights / weights.sum(dim=-1, keepdim=True)

        # Switch-style load-balancing loss: E * sum_i f_i * P_i
        f = self.tokens_per_expert(expert_idx) / expert_idx.numel()
        p = probs.mean(dim=0)
        aux_loss = self.aux_coef * self.num_experts * (f * p).sum()
        return weights, expert_idx, aux_loss, f


if __name__ == "__main__":
    torch.manual_seed(0)
    router = TopKRouter(d_model=16, num_experts=4, top_k=2)
    x = torch.randn(64, 16)
    weights, expert_idx, aux_loss, load = router(x)
    print("fraction of routed slots per expert:", [round(v, 3) for v in load.tolist()], "sum:", load.sum().item())
    print("aux loss:", aux_loss.item())
