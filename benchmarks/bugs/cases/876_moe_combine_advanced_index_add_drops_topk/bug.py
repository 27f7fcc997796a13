import torch
import torch.nn as nn


class SparseMoE(nn.Module):
    def __init__(self, hidden, ffn, num_experts, top_k):
        super().__init__()
        self.top_k = top_k
        self.router = nn.Linear(hidden, num_experts, bias=False)
        self.experts = nn.ModuleList(
            nn.Sequential(nn.Linear(hidden, ffn), nn.GELU(), nn.Linear(ffn, hidden)) for _ in range(num_experts)
        )

    def forward(self, x):
        probs = self.router(x).softmax(dim=-1)
        weights, experts = probs.topk(self.top_k, dim=-1)
        weights = weights / weights.sum(dim=-1, keepdim=True)
        token_idx = torch.arange(x.size(0)).repeat_interleave(self.top_k)
        flat_expert = experts.reshape(-1)
        flat_weight = weights.reshape(-1)
        routed = torch.zeros(token_idx.numel(), x.size(1))
        for e, expert in enumerate(self.experts):
            rows = (flat_expert == e).nonzero(as_tuple=True)[0]
            if rows.numel():
                routed[rows] = expert(x[token_idx[rows]])
        out = torch.zeros_like(x)
        out[token_idx] += routed * flat_weight.unsqueeze(-1)
        return out


if __name__ == "__main__":
    torch.manual_seed(0)
    moe = SparseMoE(hidden=8, ffn=16, num_experts=4, top_k=2)
    x = torch.randn(5, 8)
    with torch.no_grad():
        y = moe(x)
    print(y[:2])
    print("row norms", y.norm(dim=-1))
