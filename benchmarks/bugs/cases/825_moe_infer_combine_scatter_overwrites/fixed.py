import torch
import torch.nn as nn
from jaxtyping import Float, Int
from torch import Tensor


class MoEFeedForward(nn.Module):
    def __init__(self, dim: int, n_experts: int, top_k: int):
        super().__init__()
        self.top_k = top_k
        self.gate = nn.Linear(dim, n_experts, bias=False)
        self.experts = nn.ModuleList(nn.Linear(dim, dim) for _ in range(n_experts))

    def route(self, x: Float[Tensor, "tokens dim"]):
        scores = self.gate(x).softmax(dim=-1)
        weights, experts = scores.topk(self.top_k, dim=-1)
        weights = weights / weights.sum(dim=-1, keepdim=True)
        return experts.reshape(-1), weights.reshape(-1, 1)

    @torch.no_grad()
    def moe_infer(
        self,
        x: Float[Tensor, "tokens dim"],
        flat_expert_indices: Int[Tensor, "routed"],
        flat_expert_weights: Float[Tensor, "routed 1"],
    ) -> Float[Tensor, "tokens dim"]:
        expert_cache = torch.zeros_like(x)
        idxs = flat_expert_indices.argsort()
        ends = flat_expert_indices.bincount(minlength=len(self.experts)).cumsum(0).tolist()
        token_idxs = idxs // self.top_k
        start = 0
        for i, end in enumerate(ends):
            if start == end:
                continue
            exp_token_idx = token_idxs[start:end]
            expert_out = self.experts[i](x[exp_token_idx]) * flat_expert_weights[idxs[start:end]]
            expert_cache.scatter_add_(0, exp_token_idx.view(-1, 1).repeat(1, x.shape[-1]), expert_out)
            start = end
        return expert_cache

    def forward(self, x: Float[Tensor, "tokens dim"]) -> Float[Tensor, "tokens dim"]:
        flat_idx, flat_w = self.route(x)
        return self.moe_infer(x, flat_idx, flat_w)


if __name__ == "__main__":
    torch.manual_seed(0)
    layer = MoEFeedForward(dim=8, n_experts=4, top_k=2).eval()
    x = torch.randn(6, 8)
    y = layer(x)
    flat_idx, flat_w = layer.route(x)
    with torch.no_grad():
        for t in range(6):
            ref = torch.zeros(8)
            for j in range(2):
                e = int(flat_idx[t * 2 + j])
                ref += flat_w[t * 2 + j, 0] * layer.experts[e](x[t])
            assert torch.allclose(y[t], ref, atol=1e-5), (t, y[t], ref)
    print("ok")
