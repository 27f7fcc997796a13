import torch


def sort_by_expert(expert_ids, hidden):
    # expert_ids: [T] int64, hidden: [T, D]
    order = torch.argsort(expert_ids, stable=True)  # [T]
    sorted_hidden = torch.take_along_dim(hidden, order[:, None], dim=0)  # [T, D]
    inverse = torch.empty_like(order).scatter_(0, order, torch.arange(order.numel()))  # [T]
    return order, inverse, sorted_hidden


def expert_counts(expert_ids, num_experts):
    # [T] -> [E]
    counts = torch.zeros(num_experts, dtype=torch.long)
    return counts.scatter_add_(0, expert_ids, torch.ones_like(expert_ids))


def combine(sorted_out, inverse, gate):
    # sorted_out: [T, D] in expert order, inverse: [T], gate: [T]
    out = sorted_out.index_select(0, inverse)  # back to token order
    return out * gate[:, None]


def write_active(cache, slot_ids, rows, active):
    # cache: [S, D], slot_ids: [T], rows: [T, D], active: [T] bool
    cache.index_copy_(0, slot_ids[active], rows[active])
    return cache


if __name__ == "__main__":
    torch.manual_seed(0)
    T, D, E = 12, 5, 4
    hidden = torch.randn(T, D)
    expert_ids = torch.randint(0, E, (T,))
    gate = torch.rand(T)
    weights = torch.randn(E, D, D)

    order, inverse, sorted_hidden = sort_by_expert(expert_ids, hidden)
    sorted_experts = expert_ids[order]
    sorted_out = torch.einsum("td,tde->te", sorted_hidden, weights[sorted_experts])
    out = combine(sorted_out, inverse, gate)
    counts = expert_counts(expert_ids, E)

    for t in range(T):
        ref = hidden[t] @ weights[int(expert_ids[t])] * gate[t]
        assert torch.allclose(out[t], ref, atol=1e-5)
        assert int(order[int(inverse[t])]) == t
    for e in range(E):
        assert counts[e].item() == sum(1 for t in range(T) if int(expert_ids[t]) == e)

    cache = torch.zeros(16, D)
    slot_ids = torch.randperm(16)[:T]
    active = gate > 0.3
    write_active(cache, slot_ids, out, active)
    for t in range(T):
        expect = out[t] if active[t] else torch.zeros(D)
        assert torch.allclose(cache[int(slot_ids[t])], expect)
    print("ok")
