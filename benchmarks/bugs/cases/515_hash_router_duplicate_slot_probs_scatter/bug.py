import torch
import torch.nn as nn


class HashRouter(nn.Module):
    """Each token is sent to `top_k` experts chosen by fixed hash functions of its id."""

    def __init__(self, num_experts, top_k, hidden):
        super().__init__()
        self.num_experts, self.top_k = num_experts, top_k
        self.gate = nn.Linear(hidden, top_k)
        self.register_buffer("salts", torch.tensor([1, 3, 5, 7][:top_k]))

    def forward(self, token_ids, hidden_states):
        # token_ids: [T], hidden_states: [T, H]
        slots = (token_ids.unsqueeze(1) * self.salts) % self.num_experts   # [T, K]
        slot_probs = self.gate(hidden_states).softmax(-1)                  # [T, K]
        return slots, slot_probs


def dispatch_probs(slots, slot_probs, num_experts):
    # dense per-expert weight for every token: [T, E]
    probs = slot_probs.new_zeros(slots.size(0), num_experts)
    probs.scatter_(1, slots, slot_probs)
    return probs


def moe_forward(x, token_ids, router, experts):
    slots, slot_probs = router(token_ids, x)
    probs = dispatch_probs(slots, slot_probs, router.num_experts)          # [T, E]
    out = torch.zeros_like(x)
    for e, expert in enumerate(experts):
        out += probs[:, e:e + 1] * expert(x)
    return out, probs


if __name__ == "__main__":
    torch.manual_seed(0)
    T, H, E, K = 12, 16, 8, 3
    router = HashRouter(E, K, H)
    experts = nn.ModuleList(nn.Linear(H, H) for _ in range(E))
    token_ids = torch.randint(0, 5000, (T,))
    x = torch.randn(T, H)
    out, probs = moe_forward(x, token_ids, router, experts)
    print("routing mass per token:", [round(v, 3) for v in probs.sum(-1).tolist()])
    print("output norm:", out.norm().item())
