import torch
import torch.nn as nn
import torch.nn.functional as F


class TopNGatedExperts(nn.Module):
    def __init__(self, dim, num_experts, top_n, capacity):
        super().__init__()
        self.num_experts, self.top_n, self.capacity = num_experts, top_n, capacity
        self.to_gates = nn.Linear(dim, num_experts, bias=False)
        self.experts = nn.Parameter(torch.randn(num_experts, dim, dim) / dim ** 0.5)

    def route(self, x):
        probs = self.to_gates(x).softmax(dim=-1)
        gates, gate_indices = probs.topk(self.top_n, dim=-1)
        mask = F.one_hot(gate_indices, self.num_experts).permute(2, 0, 1, 3).float()
        positions = []
        prev_expert_count = 0.0
        for n in range(self.top_n):
            position_in_expert = (mask[n].cumsum(dim=-2) - 1 + prev_expert_count) * mask[n]
            mask[n] = mask[n] * (position_in_expert < self.capacity).float()
            prev_expert_count = mask[n].sum(dim=-2, keepdim=True)
            positions.append(position_in_expert.sum(dim=-1).long())
        return gates, gate_indices, torch.stack(positions, -1)

    def forward(self, x):
        b, n, d = x.shape
        gates, experts, slots = self.route(x)
        batch_idx = torch.arange(b).view(b, 1, 1).expand_as(experts)
        token_idx = torch.arange(n).view(1, n, 1).expand_as(experts)
        dispatched = x.new_zeros(b, self.num_experts, self.capacity, d)
        dispatched[batch_idx, experts, slots] = x[batch_idx, token_idx]
        expert_out = torch.einsum("becd,edh->bech", dispatched, self.experts)
        picked = expert_out[batch_idx, experts, slots]
        return (picked * gates.unsqueeze(-1)).sum(dim=2)


if __name__ == "__main__":
    torch.manual_seed(0)
    moe = TopNGatedExperts(dim=8, num_experts=4, top_n=3, capacity=12)
    x = torch.randn(2, 12, 8)
    with torch.no_grad():
        y = moe(x)
    print("output[0, :4, :3]:\n", y[0, :4, :3])
