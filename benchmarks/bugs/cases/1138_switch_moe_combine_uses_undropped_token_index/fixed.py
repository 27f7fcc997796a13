import torch
import torch.nn as nn


class SwitchFFN(nn.Module):
    def __init__(self, d_model, d_ff, num_experts, capacity_factor=1.0):
        super().__init__()
        self.num_experts = num_experts
        self.capacity_factor = capacity_factor
        self.router = nn.Linear(d_model, num_experts)
        self.experts = nn.ModuleList(
            nn.Sequential(nn.Linear(d_model, d_ff), nn.GELU(), nn.Linear(d_ff, d_model))
            for _ in range(num_experts)
        )

    def forward(self, x):
        d_model = x.size(-1)
        tokens = x.reshape(-1, d_model)
        gate = torch.softmax(self.router(tokens), dim=-1)
        weight, expert_idx = gate.max(dim=-1)
        capacity = int(self.capacity_factor * tokens.size(0) / self.num_experts)
        out = torch.zeros_like(tokens)
        for e, expert in enumerate(self.experts):
            token_idx = torch.nonzero(expert_idx == e).squeeze(1)
            kept = token_idx[:capacity]  # overflow tokens are dropped (residual only)
            y = expert(tokens[kept]) * weight[kept, None]
            out.index_add_(0, kept, y)
        return x + out.reshape_as(x)


if __name__ == "__main__":
    torch.manual_seed(0)
    layer = SwitchFFN(d_model=32, d_ff=64, num_experts=4, capacity_factor=1.0)
    x = torch.randn(2, 16, 32)
    with torch.no_grad():
        y = layer(x)
        tokens = x.reshape(-1, 32)
        gate = torch.softmax(layer.router(tokens), dim=-1)
        ref = tokens.clone()
        seen = [0, 0, 0, 0]
        for t in range(tokens.size(0)):
            w, e = gate[t].max(dim=-1)
            e = int(e)
            if seen[e] < 8:
                ref[t] = ref[t] + layer.experts[e](tokens[t : t + 1])[0] * w
            seen[e] += 1
        assert torch.allclose(y.reshape(-1, 32), ref, atol=1e-5)
    print("ok")
