import math

import torch
import torch.nn as nn
import torch.nn.functional as F


class CDMoE(nn.Module):
    """Cross-domain MoE with product-key retrieval: two half-routers score sqrt(E) keys each,
    and expert e = kx * num_keys + ky is scored by score_x[kx] + score_y[ky]."""

    def __init__(self, hidden_size, num_experts, num_experts_per_tok):
        super().__init__()
        self.top_k = num_experts_per_tok
        self.num_keys = int(math.sqrt(num_experts))
        self.router_gate = nn.Linear(hidden_size, self.num_keys * 2, bias=False)
        self.down_embed = nn.Embedding(num_experts, hidden_size)
        self.up_embed = nn.Embedding(num_experts, hidden_size)

    def forward(self, hidden_states):
        bsz, seq_len, hidden = hidden_states.shape
        tokens = hidden_states.reshape(-1, hidden)
        half_logits = self.router_gate(tokens).unflatten(-1, (2, self.num_keys)).permute(1, 0, 2)
        key_scores, key_ids = half_logits.topk(self.num_keys, dim=-1)
        grid_scores = (key_scores[0][:, :, None] + key_scores[1][:, None, :]).flatten(1)
        grid_experts = (key_ids[0][:, :, None] * self.num_keys + key_ids[1][:, None, :]).flatten(1)
        top_scores, grid_pos = grid_scores.topk(self.top_k, dim=-1)
        expert_ids = grid_experts.gather(-1, grid_pos)
        down = self.down_embed(expert_ids)
        up = self.up_embed(expert_ids)
        act = F.silu(torch.einsum("tkh,th->tk", down, tokens)) * top_scores.softmax(dim=-1)
        return torch.einsum("tk,tkh->th", act, up).view(bsz, seq_len, hidden)

if __name__ == "__main__":
    torch.manual_seed(0)
    moe = CDMoE(hidden_size=32, num_experts=64, num_experts_per_tok=4)
    hidden = torch.randn(2, 5, 32)
    with torch.no_grad():
        out = moe(hidden)
        ref = torch.zeros_like(out)
        K = moe.num_keys
        for b in range(2):
            for t in range(5):
                h = hidden[b, t]
                rw = moe.router_gate(h).view(2, K)
                expert_scores = torch.tensor([rw[0, e // K] + rw[1, e % K] for e in range(K * K)])
                top_scores, top_experts = expert_scores.topk(moe.top_k)
                gate = top_scores.softmax(dim=-1)
                for g, e in zip(gate, top_experts.tolist()):
                    ref[b, t] += F.silu(moe.down_embed.weight[e] @ h) * g * moe.up_embed.weight[e]
    assert torch.allclose(out, ref, atol=1e-4)
    print("ok")
