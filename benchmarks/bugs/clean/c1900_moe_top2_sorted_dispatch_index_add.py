import torch
import torch.nn as nn
import torch.nn.functional as F


class Expert(nn.Module):
    def __init__(self, hidden, ffn):
        super().__init__()
        self.w1 = nn.Linear(hidden, ffn, bias=False)
        self.w2 = nn.Linear(ffn, hidden, bias=False)

    def forward(self, x):
        return self.w2(F.silu(self.w1(x)))


class SparseMoeBlock(nn.Module):
    """Top-k token-choice MoE: tokens are sorted by expert, run per expert, and summed back."""

    def __init__(self, hidden, ffn, num_experts, top_k):
        super().__init__()
        self.num_experts = num_experts
        self.top_k = top_k
        self.gate = nn.Linear(hidden, num_experts, bias=False)
        self.experts = nn.ModuleList([Expert(hidden, ffn) for _ in range(num_experts)])

    def forward(self, hidden_states):
        # hidden_states: [batch, seq, hidden]
        batch, seq, hidden = hidden_states.shape
        x = hidden_states.reshape(-1, hidden)  # [T, hidden]
        router_probs = self.gate(x).softmax(dim=-1)  # [T, E]
        topk_weights, topk_ids = router_probs.topk(self.top_k, dim=-1)  # [T, K], [T, K]
        topk_weights = topk_weights / topk_weights.sum(dim=-1, keepdim=True)

        flat_expert = topk_ids.reshape(-1)  # [T*K]
        flat_token = torch.arange(x.shape[0]).repeat_interleave(self.top_k)  # [T*K]
        flat_weight = topk_weights.reshape(-1)  # [T*K]
        order = flat_expert.argsort(stable=True)
        sorted_token = flat_token.index_select(0, order)  # [T*K]
        sorted_weight = flat_weight.index_select(0, order)  # [T*K]
        counts = torch.bincount(flat_expert, minlength=self.num_experts).tolist()

        permuted = x.index_select(0, sorted_token)  # [T*K, hidden]
        out_rows = []
        for e, chunk in enumerate(permuted.split(counts, dim=0)):
            out_rows.append(self.experts[e](chunk))
        expert_out = torch.cat(out_rows, dim=0) * sorted_weight.unsqueeze(-1)  # [T*K, hidden]

        combined = torch.zeros_like(x).index_add_(0, sorted_token, expert_out)  # [T, hidden]
        return combined.reshape(batch, seq, hidden), router_probs


if __name__ == "__main__":
    torch.manual_seed(0)
    block = SparseMoeBlock(hidden=16, ffn=32, num_experts=4, top_k=2)
    inputs = torch.randn(2, 5, 16)
    with torch.no_grad():
        out, probs = block(inputs)
        tokens = inputs.reshape(-1, 16)
        for t in range(tokens.shape[0]):
            p = probs[t].tolist()
            chosen = sorted(range(4), key=lambda e: -p[e])[:2]
            norm = sum(p[e] for e in chosen)
            ref = sum(p[e] / norm * block.experts[e](tokens[t]) for e in chosen)
            assert torch.allclose(out.reshape(-1, 16)[t], ref, atol=1e-5)
    print("ok")
