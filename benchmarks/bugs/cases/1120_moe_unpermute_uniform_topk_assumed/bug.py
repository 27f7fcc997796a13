import torch
import torch.nn as nn


class CapacityRouter(nn.Module):
    def __init__(self, hidden, num_experts, topk, capacity):
        super().__init__()
        self.gate = nn.Linear(hidden, num_experts, bias=False)
        self.topk, self.capacity = topk, capacity

    def forward(self, x):
        probs = torch.softmax(self.gate(x), dim=-1)
        _, idx = probs.topk(self.topk, dim=-1)
        routing_map = torch.zeros_like(probs, dtype=torch.bool).scatter(1, idx, True)
        # drop tokens beyond each expert's capacity (earliest tokens win)
        rank_in_expert = routing_map.long().cumsum(0)
        routing_map &= rank_in_expert <= self.capacity
        return routing_map


def permute(tokens, routing_map):
    token_of_slot = routing_map.T.nonzero()[:, 1]
    return tokens.index_select(0, token_of_slot)


def unpermute(permuted_tokens, routing_map):
    num_tokens, num_experts = routing_map.shape
    hidden = permuted_tokens.size(-1)
    routing_map_T = routing_map.T.long()
    expert_offsets = torch.zeros(num_experts + 1, dtype=torch.long)
    expert_offsets[1:] = routing_map_T.sum(-1).cumsum(0)
    position_in_expert = routing_map_T.cumsum(-1) - 1
    global_position = (position_in_expert + expert_offsets[:-1, None]).T
    topk = int(routing_map.long().sum(-1)[0].item())
    reverse_indices = global_position[routing_map]
    gathered = permuted_tokens.index_select(0, reverse_indices).view(num_tokens, topk, hidden)
    return gathered.sum(dim=1)


class MoELayer(nn.Module):
    def __init__(self, hidden=8, num_experts=4, topk=2, capacity=2):
        super().__init__()
        self.router = CapacityRouter(hidden, num_experts, topk, capacity)
        self.experts = nn.ModuleList(nn.Linear(hidden, hidden) for _ in range(num_experts))

    def forward(self, x):
        routing_map = self.router(x)
        permuted = permute(x, routing_map)
        counts = routing_map.sum(0).tolist()
        chunks = permuted.split(counts)
        expert_out = torch.cat([e(c) for e, c in zip(self.experts, chunks)])
        return unpermute(expert_out, routing_map), routing_map


if __name__ == "__main__":
    torch.manual_seed(3)
    layer = MoELayer()
    x = torch.randn(6, 8)
    with torch.no_grad():
        out, routing_map = layer(x)
    print("experts per token:", routing_map.sum(-1).tolist())
    print("output:", tuple(out.shape))
