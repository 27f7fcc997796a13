import torch
import torch.nn as nn
import torch.nn.functional as F


def shard_router_indices(top_k_index, ep_rank, ep_size, num_experts):
    """Keep the experts owned by this rank (re-numbered locally); others get the sentinel `num_local`."""
    num_local = num_experts // ep_size
    start = ep_rank * num_local
    local = top_k_index - start  # [T, K]
    owned = (local >= 0) & (local < num_local)  # [T, K]
    return torch.where(owned, local, torch.full_like(local, num_local)), owned


class LocalExperts(nn.Module):
    def __init__(self, num_local: int, hidden: int, inter: int):
        super().__init__()
        self.num_experts = num_local
        self.gate_up = nn.Parameter(torch.randn(num_local, hidden, 2 * inter) * 0.1)
        self.down = nn.Parameter(torch.randn(num_local, inter, hidden) * 0.1)

    def forward(self, hidden_states, top_k_index, top_k_weights):
        # hidden_states: [T, H]; top_k_index / top_k_weights: [T, K] (local ids, sentinel for remote experts)
        out = torch.zeros_like(hidden_states)  # [T, H]
        expert_mask = F.one_hot(top_k_index, num_classes=self.num_experts)  # [T, K, E]
        expert_mask = expert_mask.permute(2, 1, 0)  # [E, K, T]
        expert_hit = torch.greater(expert_mask.sum(dim=(-1, -2)), 0).nonzero()  # [n_hit, 1]
        for expert_idx in expert_hit[:, 0].tolist():
            if expert_idx == self.num_experts:
                continue
            slot, token_idx = torch.where(expert_mask[expert_idx])  # [n], [n]
            x = hidden_states[token_idx]  # [n, H]
            gate, up = (x @ self.gate_up[expert_idx]).chunk(2, dim=-1)  # [n, I] each
            y = (F.silu(gate) * up) @ self.down[expert_idx]  # [n, H]
            y = y * top_k_weights[token_idx, slot, None]  # [n, H]
            out.index_add_(0, token_idx, y.to(out.dtype))
        return out


if __name__ == "__main__":
    torch.manual_seed(0)
    T, H, I, E, K, EP = 6, 8, 16, 8, 2, 2
    router = nn.Linear(H, E, bias=False)
    x = torch.randn(T, H)  # [T, H]
    probs = router(x).softmax(-1)  # [T, E]
    top_w, top_i = probs.topk(K, dim=-1)  # [T, K]
    experts = LocalExperts(num_local=E // EP, hidden=H, inter=I)
    local_idx, owned = shard_router_indices(top_i, ep_rank=1, ep_size=EP, num_experts=E)
    partial = experts(x, local_idx, top_w * owned)
    print("rank-1 partial output norm:", partial.norm().item())
