import math

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch import einsum

uniform_map = {}


def _capacity(gates, capacity_factor, min_capacity):
    num_tokens = gates.shape[0]
    num_experts = gates.shape[1]
    capacity = math.ceil((num_tokens / num_experts) * capacity_factor)
    if capacity < min_capacity:
        capacity = min_capacity
    return capacity


def _one_hot_to_float(x, num_classes):
    return F.one_hot(x, num_classes=num_classes).float()


def top1gating(logits, capacity_factor, min_capacity, use_rts=True):
    """Implements Top1Gating on logits."""
    # everything is in fp32 in this function
    gates = F.softmax(logits, dim=1)
    capacity = _capacity(gates, capacity_factor, min_capacity)

    # Create a mask for 1st's expert per token
    indices1_s = torch.argmax(gates, dim=1)
    num_experts = int(gates.shape[1])
    mask1 = F.one_hot(indices1_s, num_classes=num_experts)

    # Compute l_aux
    me = torch.mean(gates, dim=0)
    ce = torch.mean(mask1.float(), dim=0)
    l_aux = torch.sum(me * ce) * num_experts

    # Random Token Selection
    if use_rts:
        uniform = uniform_map.get(logits.device)
        if uniform is None:
            uniform = torch.distributions.uniform.Uniform(
                low=torch.tensor(0.0, device=logits.device), high=torch.tensor(1.0, device=logits.device)
            ).rsample
            uniform_map[logits.device] = uniform
        mask1_rand = mask1 * uniform(mask1.shape)
        assert logits.shape[0] >= min_capacity, "No. of tokens (batch-size) should be greater than min_capacity."
        _, top_idx = torch.topk(mask1_rand, k=capacity, dim=0)
        new_mask1 = mask1 * torch.zeros_like(mask1).scatter_(0, top_idx, 1)
        mask1 = new_mask1

    # Compute locations in capacity buffer
    locations1 = torch.cumsum(mask1, dim=0) - 1

    # Remove locations outside capacity from mask (tokens not pre-selected by random token selection)
    mask1 = mask1 * torch.lt(locations1, capacity)

    # Store the capacity location for each token
    locations1_s = torch.sum(locations1 * mask1, dim=1)

    # Normalize gate probabilities
    mask1_float = mask1.float()
    gates = gates * mask1_float

    locations1_sc = _one_hot_to_float(locations1_s, capacity)
    combine_weights = einsum("se,sc->sec", gates, locations1_sc)
    dispatch_mask = combine_weights.bool()
    return l_aux, combine_weights, dispatch_mask


class TopKGate(nn.Module):
    def __init__(self, model_dim, num_experts, capacity_factor=1.0, min_capacity=4, use_rts=True):
        super().__init__()
        self.wg = nn.Linear(model_dim, num_experts, bias=False)
        self.capacity_factor = capacity_factor
        self.min_capacity = min_capacity
        self.use_rts = use_rts

    def forward(self, x):
        logits = self.wg(x.float())
        return top1gating(logits, self.capacity_factor, self.min_capacity, self.use_rts)


class MOELayer(nn.Module):
    def __init__(self, gate, experts):
        super().__init__()
        self.gate = gate
        self.experts = experts

    def forward(self, x):
        d_model = x.shape[-1]
        reshaped_input = x.reshape(-1, d_model)
        l_aux, combine_weights, dispatch_mask = self.gate(reshaped_input)
        dispatched_input = einsum("sec,sm->ecm", dispatch_mask.type_as(x), reshaped_input)
        expert_output = torch.stack([expert(chunk) for expert, chunk in zip(self.experts, dispatched_input)])
        combined_output = einsum("sec,ecm->sm", combine_weights.type_as(x), expert_output)
        return combined_output.reshape(x.shape), l_aux


def reference_moe(gate, experts, tokens):
    x = tokens.reshape(-1, tokens.shape[-1])
    probs = F.softmax(gate.wg(x.float()), dim=1)
    capacity = max(math.ceil(x.shape[0] / probs.shape[1] * gate.capacity_factor), gate.min_capacity)
    used = [0] * probs.shape[1]
    out = torch.zeros_like(x)
    for s in range(x.shape[0]):
        e = int(torch.argmax(probs[s]))
        if used[e] < capacity:
            out[s] = probs[s, e] * experts[e](x[s])
            used[e] += 1
    return out.reshape(tokens.shape), used


if __name__ == "__main__":
    torch.manual_seed(0)
    gate = TopKGate(model_dim=8, num_experts=4, capacity_factor=1.0, min_capacity=4, use_rts=False)
    with torch.no_grad():
        gate.wg.weight.zero_()
        gate.wg.weight[0] = 1.0  # every token prefers expert 0
    experts = nn.ModuleList([nn.Linear(8, 8) for _ in range(4)])
    moe = MOELayer(gate, experts)
    tokens = torch.rand(1, 5, 8) + 0.1
    with torch.no_grad():
        out, l_aux = moe(tokens)
        expected, used = reference_moe(gate, experts, tokens)
        _, combine_weights, dispatch_mask = gate(tokens.reshape(-1, 8))
    assert used == [4, 0, 0, 0]
    assert dispatch_mask.sum().item() == 4 and not dispatch_mask[4].any()
    assert torch.allclose(out, expected, atol=1e-6)
    # a second batch with mixed routing and no overflow
    tokens2 = torch.randn(2, 6, 8)
    gate.wg.weight.data.normal_()
    with torch.no_grad():
        out2, _ = moe(tokens2)
        expected2, _ = reference_moe(gate, experts, tokens2)
    assert torch.allclose(out2, expected2, atol=1e-6)
    print("ok")
