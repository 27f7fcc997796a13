import torch
import torch.nn as nn
import torch.nn.functional as F


class MoeStatics(nn.Module):
    """Aux-loss-free load balancing: a per-expert bias that only steers expert *selection*."""

    def __init__(self, num_experts):
        super().__init__()
        self.e_score_correction_bias = nn.Parameter(torch.zeros(num_experts), requires_grad=False)

    def forward(self, probs):
        """
        Args:
            probs: (num_tokens, num_experts) router probabilities.
        Returns:
            (num_tokens, num_experts) biased scores used to pick experts.
        """
        return probs + self.e_score_correction_bias


class SparseMoeBlock(nn.Module):
    def __init__(self, hidden_size, ffn_size, num_experts, top_k, norm_min=1e-12):
        super().__init__()
        self.top_k = top_k
        self.norm_min = norm_min
        self.gate = nn.Linear(hidden_size, num_experts, bias=False)
        self.moe_statics = MoeStatics(num_experts)
        self.experts = nn.ModuleList(
            nn.Sequential(nn.Linear(hidden_size, ffn_size), nn.SiLU(), nn.Linear(ffn_size, hidden_size))
            for _ in range(num_experts)
        )

    def route(self, hidden_states):
        """
        Args:
            hidden_states: (num_tokens, hidden_size).
        Returns:
            routing_weights: (num_tokens, top_k) normalised weights of the chosen experts.
            selected_experts: (num_tokens, top_k) expert ids.
        """
        router_logits = self.gate(hidden_states.float())
        routing_weights = F.softmax(router_logits, dim=1, dtype=torch.float)
        _, selected_experts = torch.topk(self.moe_statics(routing_weights), self.top_k, dim=-1)
        routing_weights = torch.gather(routing_weights, dim=-1, index=selected_experts)
        routing_weights = routing_weights / torch.clamp(
            routing_weights.sum(dim=-1, keepdim=True), min=self.norm_min
        )
        return routing_weights, selected_experts

    def forward(self, hidden_states):
        """
        Args:
            hidden_states: (batch, seq_len, hidden_size).
        Returns:
            (batch, seq_len, hidden_size).
        """
        b, s, h = hidden_states.shape
        flat = hidden_states.reshape(-1, h)
        routing_weights, selected_experts = self.route(flat)
        out = torch.zeros_like(flat)
        for e, expert in enumerate(self.experts):
            token_idx, slot = torch.where(selected_experts == e)
            if token_idx.numel() == 0:
                continue
            contrib = expert(flat[token_idx]) * routing_weights[token_idx, slot, None]
            out.index_add_(0, token_idx, contrib)
        return out.reshape(b, s, h)


if __name__ == "__main__":
    torch.manual_seed(0)
    moe = SparseMoeBlock(hidden_size=16, ffn_size=32, num_experts=8, top_k=2)
    with torch.no_grad():
        moe.moe_statics.e_score_correction_bias.copy_(torch.linspace(-0.3, 0.3, 8))
    x = torch.randn(2, 5, 16)
    with torch.no_grad():
        weights, experts = moe.route(x.reshape(-1, 16))
        probs = moe.gate(x.reshape(-1, 16)).softmax(-1)
        ref = torch.tensor([[probs[t, e].item() for e in experts[t].tolist()] for t in range(10)])
        ref = ref / ref.sum(-1, keepdim=True)
    assert torch.allclose(weights, ref, atol=1e-6)
    with torch.no_grad():
        y = moe(x).reshape(-1, 16)
        flat = x.reshape(-1, 16)
        for t in range(10):
            expect = sum(
                ref[t, j] * moe.experts[experts[t, j].item()](flat[t]) for j in range(2)
            )
            assert torch.allclose(y[t], expect, atol=1e-5)
    print("ok")
