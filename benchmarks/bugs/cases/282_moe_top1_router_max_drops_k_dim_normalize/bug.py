from dataclasses import dataclass
from typing import Optional

import torch
import torch.nn as nn
import torch.nn.functional as F


@dataclass
class Arguments:
    hidden_size: int = 16
    ffn_hidden_size: int = 32
    moe_num_experts: int = 4
    moe_top_k: int = 1
    moe_normalize_expert_weights: Optional[float] = 1.0


class LearnedRouter(nn.Module):
    def __init__(self, args: Arguments):
        super().__init__()
        self.args = args
        self.layer = nn.Linear(args.hidden_size, args.moe_num_experts, bias=False)

    def _top_k(self, scores):
        # scores: [tokens, num_experts] -> weights, indices: [tokens, top_k]
        if self.args.moe_top_k == 1:
            return scores.max(dim=-1)
        return torch.topk(scores, self.args.moe_top_k, dim=-1)

    def forward(self, x):
        # x: [sl, bs, hs]
        scores = self.layer(x.view(-1, x.shape[-1])).softmax(dim=-1)  # [tokens, num_experts]
        expert_weights, expert_indices = self._top_k(scores)
        if self.args.moe_normalize_expert_weights:
            # each token's top-k weights are normalized over its own k experts
            expert_weights = expert_weights / torch.norm(
                expert_weights, p=self.args.moe_normalize_expert_weights, dim=-1, keepdim=True
            )
        return scores, expert_weights, expert_indices


class MoE(nn.Module):
    def __init__(self, args: Arguments):
        super().__init__()
        self.args = args
        self.router = LearnedRouter(args)
        self.experts = nn.ModuleList(
            nn.Sequential(nn.Linear(args.hidden_size, args.ffn_hidden_size), nn.GELU(), nn.Linear(args.ffn_hidden_size, args.hidden_size))
            for _ in range(args.moe_num_experts)
        )

    def forward(self, x):
        # x: [sl, bs, hs]
        in_shape = x.shape
        scores, expert_weights, top_experts = self.router(x)
        x = x.view(-1, x.shape[-1])  # [tokens, hs]
        expert_weights = expert_weights.flatten()  # [tokens * top_k]
        top_experts = top_experts.flatten()  # [tokens * top_k]
        token_idx = torch.arange(x.shape[0]).repeat_interleave(self.args.moe_top_k)  # [tokens * top_k]
        out = torch.zeros_like(x)
        for e, expert in enumerate(self.experts):
            sel = (top_experts == e).nonzero(as_tuple=True)[0]
            out.index_add_(0, token_idx[sel], expert(x[token_idx[sel]]) * expert_weights[sel, None])
        return out.view(in_shape)


if __name__ == "__main__":
    torch.manual_seed(0)
    args = Arguments()
    moe = MoE(args).eval()
    x = torch.randn(6, 2, args.hidden_size)
    with torch.no_grad():
        y = moe(x)
        _, weights, _ = moe.router(x)
        flat = x.view(-1, args.hidden_size)
        scores = moe.router.layer(flat).softmax(-1)
        expected = []
        for t in range(flat.shape[0]):
            ranked = sorted(range(args.moe_num_experts), key=lambda e: -scores[t, e].item())[: args.moe_top_k]
            w = [scores[t, e].item() for e in ranked]
            w = [v / sum(abs(u) for u in w) for v in w]
            expected.append(sum(wi * moe.experts[e](flat[t]) for wi, e in zip(w, ranked)))
        expected = torch.stack(expected).view_as(y)
    print("router weights of the first 4 tokens:", [round(v, 4) for v in weights.flatten()[:4].tolist()])
    print("max |moe(x) - loop reference|:", round((y - expected).abs().max().item(), 4))
