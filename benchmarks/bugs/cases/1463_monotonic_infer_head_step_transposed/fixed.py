import torch
import torch.nn as nn


class MonotonicReadPolicy(nn.Module):
    """Hard monotonic attention used by a simultaneous-translation agent (one sentence at a time)."""

    def __init__(self, embed_dim, num_heads, mass_preservation=True):
        super().__init__()
        self.num_heads = num_heads
        self.head_dim = embed_dim // num_heads
        self.q_proj = nn.Linear(embed_dim, embed_dim)
        self.k_proj = nn.Linear(embed_dim, embed_dim)
        self.mass_preservation = mass_preservation

    def p_choose(self, query, key):
        # query: [1, E] (current target state), key: [S, E] (source read so far)
        q = self.q_proj(query).view(self.num_heads, 1, self.head_dim)
        k = self.k_proj(key).view(-1, self.num_heads, self.head_dim).transpose(0, 1)  # [H, S, D]
        energy = torch.bmm(q, k.transpose(1, 2)).squeeze(1) / self.head_dim ** 0.5  # [H, S]
        return torch.sigmoid(energy)

    def forward(self, query, key, cache):
        p_choose = self.p_choose(query, key)  # [H, S]
        src_len = key.size(0)
        max_steps = src_len - 1 if self.mass_preservation else src_len

        # one read pointer per head
        head_step = cache.get("head_step", p_choose.new_zeros(self.num_heads, 1).long())
        finish_read = head_step.eq(max_steps)
        while finish_read.sum().item() < self.num_heads:
            # p at the current pointer of every head
            p_choose_i = p_choose.gather(1, head_step.clamp(0, src_len - 1))
            read_one_step = (p_choose_i < 0.5).type_as(head_step).masked_fill(finish_read, 0)
            head_step = head_step + read_one_step
            finish_read = head_step.eq(max_steps) | (read_one_step == 0)

        cache["head_step"] = head_step
        # [H, S] one-hot attention on the selected source position
        alpha = p_choose.new_zeros(self.num_heads, src_len).scatter(
            1, head_step.view(self.num_heads, 1).clamp(0, src_len - 1), 1.0
        )
        return alpha, head_step.view(-1)


def reference_pointers(p_choose, max_steps):
    pointers = []
    for h in range(p_choose.size(0)):
        s = 0
        while s < max_steps and p_choose[h, s].item() < 0.5:
            s += 1
        pointers.append(s)
    return pointers


if __name__ == "__main__":
    torch.manual_seed(3)
    policy = MonotonicReadPolicy(embed_dim=32, num_heads=4)
    query = torch.randn(1, 32)
    key = torch.randn(9, 32)
    with torch.no_grad():
        alpha, pointers = policy(query, key, cache={})
        p = policy.p_choose(query, key)
    ref = reference_pointers(p, max_steps=key.size(0) - 1)
    assert pointers.tolist() == ref, (pointers.tolist(), ref)
    for h, s in enumerate(ref):
        assert alpha[h].argmax().item() == s and alpha[h].sum().item() == 1.0
    print("ok")
