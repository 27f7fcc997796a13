import torch
import torch.nn as nn
import torch.nn.functional as F

n_embed = 16
num_experts = 4
top_k = 2


class Expert(nn.Module):
    def __init__(self, n_embed):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(n_embed, 4 * n_embed), nn.ReLU(), nn.Linear(4 * n_embed, n_embed))

    def forward(self, x):
        return self.net(x)


class TopkRouter(nn.Module):
    def __init__(self, n_embed, num_experts, top_k):
        super().__init__()
        self.top_k = top_k
        self.linear = nn.Linear(n_embed, num_experts)

    def forward(self, mh_output):
        logits = self.linear(mh_output)  # (batch, seq, num_experts)
        top_k_logits, indices = logits.topk(self.top_k, dim=-1)  # (batch, seq, top_k)
        zeros = torch.full_like(logits, float("-inf"))
        sparse_logits = zeros.scatter(-1, indices, top_k_logits)
        router_output = F.softmax(sparse_logits, dim=-1)  # (batch, seq, num_experts), 0 outside the top k
        return router_output, indices


class SparseMoE(nn.Module):
    def __init__(self, n_embed, num_experts, top_k):
        super().__init__()
        self.router = TopkRouter(n_embed, num_experts, top_k)
        self.experts = nn.ModuleList([Expert(n_embed) for _ in range(num_experts)])
        self.top_k = top_k

    def forward(self, x):
        gating_output, indices = self.router(x)
        final_output = torch.zeros_like(x)  # (batch, seq, n_embed)

        flat_x = x.view(-1, x.size(-1))  # (batch * seq, n_embed)
        flat_gating_output = gating_output.view(-1, gating_output.size(-1))  # (batch * seq, num_experts)

        for i, expert in enumerate(self.experts):
            expert_mask = (indices == i).any(dim=-1)  # (batch, seq): tokens routed to expert i
            flat_mask = expert_mask.view(-1)
            if flat_mask.any():
                expert_input = flat_x[flat_mask]  # (n_routed, n_embed)
                expert_output = expert(expert_input)
                gating_scores = flat_gating_output[flat_mask, i].unsqueeze(1)  # (n_routed, 1)
                weighted_output = expert_output * gating_scores
                # a token is routed to top_k experts: add this expert's share to what the others wrote
                final_output[expert_mask] += weighted_output
        return final_output


if __name__ == "__main__":
    torch.manual_seed(0)
    moe = SparseMoE(n_embed, num_experts, top_k)
    x = torch.randn(2, 5, n_embed)
    with torch.no_grad():
        out = moe(x)
        gates, idx = moe.router(x)
        for b in range(2):
            for t in range(5):
                expected = [0.0] * n_embed
                for e in idx[b, t].tolist():
                    y = moe.experts[e](x[b, t])
                    for d in range(n_embed):
                        expected[d] += gates[b, t, e].item() * y[d].item()
                for d in range(n_embed):
                    assert abs(out[b, t, d].item() - expected[d]) < 1e-5
    print("ok")
