import torch
import torch.nn.functional as F
from torch import nn


class ExpertMLP(nn.Module):
    def __init__(self, hidden_dim, ffn_dim):
        super().__init__()
        self.w1 = nn.Linear(hidden_dim, ffn_dim, bias=False)
        self.w2 = nn.Linear(ffn_dim, hidden_dim, bias=False)

    def forward(self, x):
        return self.w2(F.silu(self.w1(x)))


class SparseMoeBlock(nn.Module):
    def __init__(self, hidden_dim, ffn_dim, num_experts, top_k):
        super().__init__()
        self.num_experts = num_experts
        self.top_k = top_k
        self.gate = nn.Linear(hidden_dim, num_experts, bias=False)
        self.experts = nn.ModuleList(ExpertMLP(hidden_dim, ffn_dim) for _ in range(num_experts))

    def forward(self, hidden_states):
        # hidden_states: (batch, seq, hidden)
        batch, seq, hidden = hidden_states.shape
        x = hidden_states.view(-1, hidden)  # (tokens, hidden)
        router_logits = self.gate(x)  # (tokens, num_experts)
        probs = F.softmax(router_logits, dim=-1, dtype=torch.float)
        selected_experts = probs.topk(self.top_k, dim=-1).indices  # (tokens, top_k)
        routing_weights = torch.take_along_dim(probs, selected_experts, dim=-1)
        routing_weights = (routing_weights / routing_weights.sum(dim=-1, keepdim=True)).to(x.dtype)

        final = torch.zeros_like(x)
        # (num_experts, top_k, tokens)
        expert_mask = F.one_hot(selected_experts, num_classes=self.num_experts).permute(2, 1, 0)
        for e in range(self.num_experts):
            slot, token = torch.where(expert_mask[e])
            if token.numel() == 0:
                continue
            out = self.experts[e](x[token]) * routing_weights[token, slot, None]
            final.index_add_(0, token, out.to(x.dtype))
        return final.view(batch, seq, hidden), router_logits


if __name__ == "__main__":
    torch.manual_seed(0)
    block = SparseMoeBlock(hidden_dim=12, ffn_dim=24, num_experts=5, top_k=2)
    h = torch.randn(2, 7, 12)
    with torch.no_grad():
        out, logits = block(h)

        ref = torch.zeros(14, 12)
        flat = h.view(-1, 12)
        for t in range(14):
            p = logits[t].softmax(dim=-1).tolist()
            top = sorted(range(5), key=lambda e: -p[e])[:2]
            z = sum(p[e] for e in top)
            for e in top:
                ref[t] += (p[e] / z) * block.experts[e](flat[t:t + 1])[0]
    assert torch.allclose(out.view(-1, 12), ref, atol=1e-5), (out.view(-1, 12) - ref).abs().max()
    print("ok")
