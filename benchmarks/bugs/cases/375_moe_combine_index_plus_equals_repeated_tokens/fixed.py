import torch
import torch.nn as nn


class Expert(nn.Module):
    def __init__(self, dim, hidden):
        super().__init__()
        self.w1 = nn.Linear(dim, hidden)
        self.w2 = nn.Linear(hidden, dim)

    def forward(self, x):
        return self.w2(torch.relu(self.w1(x)))


class SparseMoE(nn.Module):
    def __init__(self, dim=32, hidden=64, num_experts=4, top_k=2):
        super().__init__()
        self.top_k = top_k
        self.gate = nn.Linear(dim, num_experts, bias=False)
        self.experts = nn.ModuleList(Expert(dim, hidden) for _ in range(num_experts))

    def forward(self, x):
        scores = self.gate(x).softmax(dim=-1)
        weights, experts = scores.topk(self.top_k, dim=-1)
        weights = weights / weights.sum(dim=-1, keepdim=True)

        token_ids = torch.arange(x.shape[0]).repeat_interleave(self.top_k)
        flat_experts = experts.reshape(-1)
        flat_weights = weights.reshape(-1, 1)
        routed = torch.empty(token_ids.shape[0], x.shape[1])
        for e, expert in enumerate(self.experts):
            sel = (flat_experts == e).nonzero(as_tuple=True)[0]
            if sel.numel():
                routed[sel] = expert(x[token_ids[sel]])

        y = torch.zeros_like(x)
        y.index_add_(0, token_ids, routed * flat_weights)
        return y


if __name__ == "__main__":
    torch.manual_seed(0)
    moe = SparseMoE(dim=32, hidden=64, num_experts=4, top_k=2)
    tokens = torch.randn(10, 32)
    with torch.no_grad():
        out = moe(tokens)
        for t in range(tokens.shape[0]):
            xt = tokens[t:t + 1]
            probs = moe.gate(xt).softmax(-1)[0].tolist()
            order = sorted(range(4), key=lambda e: -probs[e])[:2]
            total = sum(probs[e] for e in order)
            ref = torch.zeros(32)
            for e in order:
                ref += (probs[e] / total) * moe.experts[e](xt)[0]
            assert torch.allclose(out[t], ref, atol=1e-5), t
    print("ok")
