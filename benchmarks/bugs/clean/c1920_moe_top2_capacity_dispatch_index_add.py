import math

import torch
import torch.nn as nn
import torch.nn.functional as F


class Top2CapacityMoE(nn.Module):
    """Token-choice top-2 MoE with a fixed per-expert capacity.

    x: [T, D] tokens -> [T, D]; tokens that overflow an expert's capacity skip that expert.
    """

    def __init__(self, dim, num_experts, capacity_factor=1.0, top_k=2):
        super().__init__()
        self.num_experts = num_experts
        self.top_k = top_k
        self.capacity_factor = capacity_factor
        self.router = nn.Linear(dim, num_experts, bias=False)
        self.w = nn.Parameter(torch.randn(num_experts, dim, dim) / math.sqrt(dim))
        self.b = nn.Parameter(torch.zeros(num_experts, 1, dim))

    def capacity(self, num_tokens):
        return max(1, math.ceil(num_tokens * self.top_k / self.num_experts * self.capacity_factor))

    def forward(self, x):
        T, D = x.shape
        E, K = self.num_experts, self.top_k
        C = self.capacity(T)

        probs = F.softmax(self.router(x), dim=-1)                      # [T, E]
        top_w, top_e = torch.topk(probs, K, dim=-1)                      # [T, K], [T, K]
        top_w = top_w / top_w.sum(dim=-1, keepdim=True)

        # flatten routes in priority order: all first choices, then all second choices
        route_expert = top_e.t().reshape(-1)                             # [K*T]
        route_token = torch.arange(T).repeat(K)                          # [K*T]
        route_weight = top_w.t().reshape(-1)                             # [K*T]

        onehot = F.one_hot(route_expert, num_classes=E)                  # [K*T, E]
        position = (onehot.cumsum(dim=0) - 1).gather(1, route_expert.unsqueeze(1)).squeeze(1)  # [K*T]
        keep = position < C
        slot = route_expert[keep] * C + position[keep]                   # unique per kept route

        buffer = x.new_zeros(E * C, D)
        buffer.index_copy_(0, slot, x.index_select(0, route_token[keep]))
        expert_out = torch.baddbmm(self.b, buffer.view(E, C, D), self.w).reshape(E * C, D)

        out = x.new_zeros(T, D)
        contrib = expert_out.index_select(0, slot) * route_weight[keep].unsqueeze(1)
        out.index_add_(0, route_token[keep], contrib)
        return out, keep.view(K, T).t()


def reference(moe, x):
    T, D = x.shape
    probs = F.softmax(moe.router(x), dim=-1)
    C = moe.capacity(T)
    used = [0] * moe.num_experts
    out = torch.zeros(T, D)
    kept = torch.zeros(T, moe.top_k, dtype=torch.bool)
    choices = []
    for t in range(T):
        w, e = torch.topk(probs[t], moe.top_k)
        choices.append((w / w.sum(), e))
    for k in range(moe.top_k):
        for t in range(T):
            w, e = choices[t]
            expert = int(e[k])
            if used[expert] < C:
                used[expert] += 1
                kept[t, k] = True
                out[t] += w[k] * (x[t] @ moe.w[expert] + moe.b[expert, 0])
    return out, kept


if __name__ == "__main__":
    torch.manual_seed(0)
    moe = Top2CapacityMoE(dim=8, num_experts=4, capacity_factor=0.75)
    x = torch.randn(10, 8)
    with torch.no_grad():
        out, kept = moe(x)
        ref_out, ref_kept = reference(moe, x)
    assert torch.equal(kept, ref_kept)
    assert not kept.all()  # some routes really overflowed
    assert torch.allclose(out, ref_out, atol=1e-5)
    print("ok")
