import torch
import torch.nn as nn
import torch.nn.functional as F

MIN_EXPERT_CAPACITY = 4


def cumsum_exclusive(t, dim=-2):
    return t.cumsum(dim=dim) - t


class Top2Gating(nn.Module):
    def __init__(self, dim, num_gates, eps=1e-9, capacity_factor=2.0):
        super().__init__()
        self.eps = eps
        self.num_gates = num_gates
        self.capacity_factor = capacity_factor
        self.w_gating = nn.Parameter(torch.randn(dim, num_gates))

    def forward(self, x):
        b, group_size, dim = x.shape
        num_gates = self.num_gates

        raw_gates = torch.einsum("bnd,de->bne", x, self.w_gating).softmax(dim=-1)

        gate_1, index_1 = raw_gates.max(dim=-1)
        mask_1 = F.one_hot(index_1, num_gates).float()
        gates_without_top_1 = raw_gates * (1.0 - mask_1)
        gate_2, index_2 = gates_without_top_1.max(dim=-1)
        mask_2 = F.one_hot(index_2, num_gates).float()

        denom = gate_1 + gate_2 + self.eps
        gate_1 = gate_1 / denom
        gate_2 = gate_2 / denom

        expert_capacity = min(group_size, int((group_size * self.capacity_factor) / num_gates))
        expert_capacity = max(expert_capacity, MIN_EXPERT_CAPACITY)

        position_in_expert_1 = cumsum_exclusive(mask_1) * mask_1
        mask_1 = mask_1 * (position_in_expert_1 < expert_capacity).float()
        mask_1_count = mask_1.sum(dim=-2, keepdim=True)
        mask_1_flat = mask_1.sum(dim=-1)
        position_in_expert_1 = position_in_expert_1.sum(dim=-1)
        gate_1 = gate_1 * mask_1_flat

        position_in_expert_2 = (cumsum_exclusive(mask_2) + mask_1_count) * mask_2
        mask_2 = mask_2 * (position_in_expert_2 < expert_capacity).float()
        mask_2_flat = mask_2.sum(dim=-1)
        position_in_expert_2 = position_in_expert_2.sum(dim=-1)
        gate_2 = gate_2 * mask_2_flat

        combine_tensor = (
            gate_1[..., None, None]
            * F.one_hot(index_1, num_gates)[..., None]
            * F.one_hot(position_in_expert_1.long())[..., None, :expert_capacity]
            + gate_2[..., None, None]
            * F.one_hot(index_2, num_gates)[..., None]
            * F.one_hot(position_in_expert_2.long())[..., None, :expert_capacity]
        )
        dispatch_tensor = combine_tensor.bool().to(combine_tensor)
        return dispatch_tensor, combine_tensor


class MoE(nn.Module):
    def __init__(self, dim, num_experts, hidden_dim):
        super().__init__()
        self.gate = Top2Gating(dim, num_experts)
        self.w1 = nn.Parameter(torch.randn(num_experts, dim, hidden_dim) * dim ** -0.5)
        self.w2 = nn.Parameter(torch.randn(num_experts, hidden_dim, dim) * hidden_dim ** -0.5)

    def forward(self, x):
        dispatch_tensor, combine_tensor = self.gate(x)
        expert_inputs = torch.einsum("bnd,bnec->ebcd", x, dispatch_tensor)
        hidden = F.gelu(torch.einsum("ebcd,edh->ebch", expert_inputs, self.w1))
        expert_outputs = torch.einsum("ebch,ehd->ebcd", hidden, self.w2)
        return torch.einsum("ebcd,bnec->bnd", expert_outputs, combine_tensor)


if __name__ == "__main__":
    torch.manual_seed(0)
    moe = MoE(dim=32, num_experts=4, hidden_dim=64)
    x = torch.randn(2, 16, 32)
    out = moe(x)
    print(out.shape)
