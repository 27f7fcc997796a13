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
    probs.scatter_add_(1, slots, slot_probs)
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
    with torch.no_grad():
        out, probs = moe_forward(x, token_ids, router, experts)

        # reference: every (token, slot) pair contributes its own expert output
        slots, slot_probs = router(token_ids, x)
        ref = torch.zeros_like(x)
        for t in range(T):
            for k in range(K):
                e = int(slots[t, k])
                ref[t] += slot_probs[t, k] * experts[e](x[t])
    assert torch.allclose(probs.sum(-1), torch.ones(T), atol=1e-5)
    assert torch.allclose(out, ref, atol=1e-5)
    print("ok")
