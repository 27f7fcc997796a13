import torch
import torch.nn as nn
import torch.nn.functional as F


class Expert(nn.Module):
    def __init__(self, d_model, d_ff):
        super().__init__()
        self.w_in = nn.Linear(d_model, d_ff)
        self.w_out = nn.Linear(d_ff, d_model)

    def forward(self, x):
        return self.w_out(F.gelu(self.w_in(x)))


class TopKMoE(nn.Module):
    def __init__(self, d_model, d_ff, n_experts, top_k):
        super().__init__()
        self.top_k = top_k
        self.router = nn.Linear(d_model, n_experts, bias=False)
        self.experts = nn.ModuleList([Expert(d_model, d_ff) for _ in range(n_experts)])

    def forward(self, x):
        probs = self.router(x).softmax(dim=-1)
        weights, expert_ids = probs.topk(self.top_k, dim=-1)
        weights = weights / weights.sum(dim=-1, keepdim=True)
        flat_experts = expert_ids.reshape(-1)
        flat_tokens = torch.arange(x.size(0)).repeat_interleave(self.top_k)
        flat_weights = weights.reshape(-1)
        out = torch.zeros_like(x)
        for e, expert in enumerate(self.experts):
            rows = (flat_experts == e).nonzero(as_tuple=True)[0]
            if rows.numel() == 0:
                continue
            tokens = flat_tokens[rows]
            y = expert(x.index_select(0, tokens)) * flat_weights[rows].unsqueeze(-1)
            out.scatter_add_(0, tokens.unsqueeze(-1).expand(-1, x.size(1)), y)
        return out


if __name__ == "__main__":
    torch.manual_seed(0)
    moe = TopKMoE(d_model=16, d_ff=32, n_experts=4, top_k=2)
    x = torch.randn(10, 16)
    out = moe(x)
    for t in range(10):
        p = moe.router(x[t]).softmax(-1)
        w, ids = p.topk(2)
        w = w / w.sum()
        ref = sum(w[j] * moe.experts[ids[j]](x[t]) for j in range(2))
        assert torch.allclose(out[t], ref, atol=1e-5)
    print("ok")
