import torch
import torch.nn as nn


class TopKMoE(nn.Module):
    def __init__(self, hidden, ffn, num_experts, top_k):
        super().__init__()
        self.top_k = top_k
        self.router = nn.Linear(hidden, num_experts, bias=False)
        self.experts = nn.ModuleList(
            nn.Sequential(nn.Linear(hidden, ffn), nn.SiLU(), nn.Linear(ffn, hidden))
            for _ in range(num_experts))

    def forward(self, x):
        b, t, h = x.shape
        flat_x = x.reshape(-1, h)                                   # [N, H]
        n = flat_x.size(0)
        probs = self.router(flat_x).softmax(-1)                     # [N, E]
        top_w, top_e = probs.topk(self.top_k, dim=-1)               # [N, K]
        slot_token = torch.arange(n).repeat_interleave(self.top_k)  # [N*K]
        slot_expert = top_e.reshape(-1)                             # [N*K]
        slot_w = top_w.reshape(-1, 1)                               # [N*K, 1]

        slot_out = torch.zeros(n * self.top_k, h)                   # [N*K, H]
        for e, expert in enumerate(self.experts):
            sel = (slot_expert == e).nonzero(as_tuple=True)[0]
            if sel.numel():
                slot_out[sel] = expert(flat_x[slot_token[sel]])
        # weight by routing probability and sum across the top-k slots of each token
        routed = (slot_out * slot_w).view(n, self.top_k, h).sum(1)  # [N, H]

        out = torch.zeros_like(flat_x)                              # [N, H]
        out.index_add_(0, slot_token, routed)
        return out.view(b, t, h)


if __name__ == "__main__":
    torch.manual_seed(0)
    moe = TopKMoE(hidden=8, ffn=16, num_experts=4, top_k=2)
    x = torch.randn(2, 3, 8)
    print(moe(x).shape)
