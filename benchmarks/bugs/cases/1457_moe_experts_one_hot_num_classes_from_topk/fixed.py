import torch
import torch.nn as nn
import torch.nn.functional as F

CONFIG = {
    "hidden_size": 24,
    "moe_intermediate_size": 16,
    "num_experts": 8,
    "num_experts_per_tok": 2,
    "norm_topk_prob": True,
}


class PackedExperts(nn.Module):
    """Experts kept as stacked weights, as produced by the quantized-checkpoint loader."""

    def __init__(self, config):
        super().__init__()
        self.num_experts = config["num_experts"]
        hidden, inter = config["hidden_size"], config["moe_intermediate_size"]
        self.gate_up_proj = nn.Parameter(torch.randn(self.num_experts, 2 * inter, hidden) * 0.1)
        self.down_proj = nn.Parameter(torch.randn(self.num_experts, hidden, inter) * 0.1)
        self.act_fn = nn.SiLU()

    def forward(self, hidden_states, top_k_index, top_k_weights):
        final_hidden_states = torch.zeros_like(hidden_states)
        with torch.no_grad():
            expert_mask = F.one_hot(top_k_index, num_classes=self.num_experts)
            expert_mask = expert_mask.permute(2, 1, 0)
            expert_hit = torch.greater(expert_mask.sum(dim=(-1, -2)), 0).nonzero()

        for expert_idx in expert_hit:
            expert_idx = expert_idx[0]
            top_k_pos, token_idx = torch.where(expert_mask[expert_idx])
            current_state = hidden_states.index_select(0, token_idx)
            gate, up = F.linear(current_state, self.gate_up_proj[expert_idx]).chunk(2, dim=-1)
            current = F.linear(self.act_fn(gate) * up, self.down_proj[expert_idx])
            current = current * top_k_weights[token_idx, top_k_pos, None]
            final_hidden_states.index_add_(0, token_idx, current.to(final_hidden_states.dtype))
        return final_hidden_states


class SparseMoeBlock(nn.Module):
    def __init__(self, config):
        super().__init__()
        self.top_k = config["num_experts_per_tok"]
        self.norm_topk_prob = config["norm_topk_prob"]
        self.gate = nn.Linear(config["hidden_size"], config["num_experts"], bias=False)
        self.experts = PackedExperts(config)

    def route_tokens_to_experts(self, router_logits):
        probs = F.softmax(router_logits, dim=-1, dtype=torch.float)
        top_k_weights, top_k_index = torch.topk(probs, self.top_k, dim=-1)
        if self.norm_topk_prob:
            top_k_weights = top_k_weights / top_k_weights.sum(dim=-1, keepdim=True)
        return top_k_index, top_k_weights

    def forward(self, hidden_states):
        batch_size, seq_len, hidden = hidden_states.shape
        flat = hidden_states.reshape(-1, hidden)
        top_k_index, top_k_weights = self.route_tokens_to_experts(self.gate(flat))
        out = self.experts(flat, top_k_index, top_k_weights.to(flat.dtype))
        return out.reshape(batch_size, seq_len, hidden)


def make_batch(cfg, batch_size=3, seq_len=7, seed=0):
    g = torch.Generator().manual_seed(seed)
    return torch.randn(batch_size, seq_len, cfg["hidden_size"], generator=g)


if __name__ == "__main__":
    torch.manual_seed(0)
    block = SparseMoeBlock(CONFIG)
    hidden = make_batch(CONFIG)
    with torch.no_grad():
        out = block(hidden)
        flat = hidden.reshape(-1, CONFIG["hidden_size"])
        probs = F.softmax(block.gate(flat), dim=-1)
        ex = block.experts
        for t in range(flat.shape[0]):
            p = probs[t].tolist()
            order = sorted(range(CONFIG["num_experts"]), key=lambda e: -p[e])[: CONFIG["num_experts_per_tok"]]
            total = sum(p[e] for e in order)
            ref = torch.zeros(CONFIG["hidden_size"])
            for e in order:
                gate, up = F.linear(flat[t], ex.gate_up_proj[e]).chunk(2, dim=-1)
                ref += (p[e] / total) * F.linear(ex.act_fn(gate) * up, ex.down_proj[e])
            assert torch.allclose(out.reshape(-1, CONFIG["hidden_size"])[t], ref, atol=1e-5)
    print("ok")
