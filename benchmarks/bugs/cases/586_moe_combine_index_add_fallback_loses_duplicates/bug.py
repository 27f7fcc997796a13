import torch
import torch.nn as nn
from jaxtyping import Float, Int


def index_add_rows(
    out: Float[torch.Tensor, "tokens hidden"],
    index: Int[torch.Tensor, "rows"],
    src: Float[torch.Tensor, "rows hidden"],
) -> Float[torch.Tensor, "tokens hidden"]:
    """Portable replacement for out.index_add_(0, index, src) on backends without the kernel."""
    out = out.clone()
    out[index] = out[index] + src
    return out


class TopKMoE(nn.Module):
    def __init__(self, hidden: int, num_experts: int, top_k: int):
        super().__init__()
        self.top_k = top_k
        self.router = nn.Linear(hidden, num_experts, bias=False)
        self.experts = nn.ModuleList(nn.Linear(hidden, hidden) for _ in range(num_experts))

    def forward(self, x: Float[torch.Tensor, "tokens hidden"]) -> Float[torch.Tensor, "tokens hidden"]:
        probs = self.router(x).softmax(-1)
        weights, experts = probs.topk(self.top_k, dim=-1)                 # [T, K]
        weights = weights / weights.sum(-1, keepdim=True)
        token_of_row = torch.arange(x.shape[0]).repeat_interleave(self.top_k)   # [T*K]
        expert_of_row = experts.reshape(-1)
        rows = x[token_of_row]
        seg = torch.empty_like(rows)
        for e, expert in enumerate(self.experts):
            sel = expert_of_row == e
            seg[sel] = expert(rows[sel])
        seg = seg * weights.reshape(-1, 1)
        return index_add_rows(torch.zeros_like(x), token_of_row, seg)


if __name__ == "__main__":
    torch.manual_seed(0)
    moe = TopKMoE(hidden=16, num_experts=4, top_k=2)
    tokens = torch.randn(6, 16)
    with torch.no_grad():
        y = moe(tokens)
    print("combined output norm per token:", y.norm(dim=-1))
