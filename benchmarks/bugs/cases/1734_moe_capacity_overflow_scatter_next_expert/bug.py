import torch
import torch.nn.functional as F


class TopKGate(torch.nn.Module):
    def __init__(self, model_dim, num_experts, k, capacity_factor):
        super().__init__()
        self.wg = torch.nn.Linear(model_dim, num_experts, bias=False)
        self.num_experts = num_experts
        self.k = k
        self.capacity_factor = capacity_factor

    def forward(self, x):
        num_samples = x.shape[0]
        capacity = int(self.capacity_factor * self.k * num_samples / self.num_experts)
        scores = F.softmax(self.wg(x), dim=-1)
        topk_ids = scores.topk(self.k, dim=-1).indices.t()
        expert_ids, location_ids = [], []
        used = torch.zeros(self.num_experts, dtype=torch.int64)
        for ids in topk_ids:
            mask = F.one_hot(ids, self.num_experts)
            locations = torch.cumsum(mask, dim=0) - 1 + used
            location_ids.append((locations * mask).sum(dim=1))
            expert_ids.append(ids)
            used += mask.sum(dim=0)
        return torch.stack(expert_ids), torch.stack(location_ids), capacity


def get_topk_selection(expert_ids, location_ids, num_experts, capacity):
    num_samples = expert_ids.shape[1]
    offset = expert_ids * capacity + location_ids
    out = torch.full([num_experts * capacity], -1, dtype=torch.int32)
    sample_ids = torch.arange(offset.numel(), dtype=torch.int32) % num_samples
    out = out.scatter_(0, offset.flatten().long(), sample_ids)
    return out.view(num_experts, capacity)


if __name__ == "__main__":
    torch.manual_seed(3)
    gate = TopKGate(model_dim=16, num_experts=4, k=2, capacity_factor=1.0)
    with torch.no_grad():
        gate.wg.weight[3] -= 2.0  # the last expert is rarely picked in this toy router
    x = torch.randn(12, 16)
    with torch.no_grad():
        expert_ids, location_ids, capacity = gate(x)
    dispatch = get_topk_selection(expert_ids, location_ids, 4, capacity)

    ref = [[-1] * capacity for _ in range(4)]
    for k in range(2):
        for s in range(12):
            e, loc = expert_ids[k, s].item(), location_ids[k, s].item()
            if loc < capacity:
                ref[e][loc] = s
    ref = torch.tensor(ref, dtype=torch.int32)
    print("tokens per expert:", torch.bincount(expert_ids.flatten(), minlength=4).tolist(), "capacity:", capacity)
    print("dispatch slots differing from reference:", int((dispatch != ref).sum()))
