import torch
import torch.nn as nn


class TopKRouter(nn.Module):
    def __init__(self, hidden_size, num_experts, top_k):
        super().__init__()
        self.proj = nn.Linear(hidden_size, num_experts, bias=False)
        self.top_k = top_k

    def forward(self, x):
        logits = self.proj(x)
        top_vals, top_idx = logits.topk(self.top_k, dim=-1)
        masked = torch.full_like(logits, float("-inf")).scatter_(1, top_idx, top_vals)
        return torch.sigmoid(masked), logits


class SparseMoeBlock(nn.Module):
    def __init__(self, name, hidden_size, num_experts, top_k):
        super().__init__()
        self.name = name
        self.router = TopKRouter(hidden_size, num_experts, top_k)
        self.experts = nn.ModuleList(nn.Linear(hidden_size, hidden_size) for _ in range(num_experts))

    def forward(self, hidden):
        flat = hidden.reshape(-1, hidden.size(-1))
        scores, _ = self.router(flat)
        out = sum(scores[:, e : e + 1] * expert(flat) for e, expert in enumerate(self.experts))
        return out.view_as(hidden)


class ExpertInputObserver:
    """Collects, for every expert, the router-weighted input of every token (REAP-style saliency)."""

    def __init__(self, num_experts):
        self.num_experts = num_experts
        self.records = {}

    def hook(self, module, args, output):
        hidden = args[0]
        flat_input = hidden.reshape(-1, hidden.size(-1))
        total_tokens, hidden_dim = flat_input.shape
        # router_scores: (num_experts, total_tokens), one row per expert
        router_scores, _ = module.router(flat_input)
        router_indices = torch.arange(total_tokens).view(1, -1).expand(router_scores.size(0), -1)
        router_indices = router_indices.reshape(-1, 1).expand(-1, hidden_dim)
        routed_in = torch.gather(flat_input, 0, router_indices)
        routed_in = routed_in.view(self.num_experts, total_tokens, hidden_dim)
        routed_in = routed_in * router_scores.reshape(self.num_experts, total_tokens, 1)
        self.records[module.name] = routed_in.detach()


if __name__ == "__main__":
    torch.manual_seed(0)
    cfg = {"hidden_size": 16, "num_experts": 4, "top_k": 2}
    block = SparseMoeBlock("layers.0.mlp", **cfg)
    observer = ExpertInputObserver(cfg["num_experts"])
    block.register_forward_hook(observer.hook)
    batch = torch.randn(2, 5, cfg["hidden_size"])
    block(batch)
    rec = observer.records["layers.0.mlp"]
    print("recorded:", tuple(rec.shape))
