import torch
import torch.nn.functional as F


def route(logits, capacity):
    """Top-1 routing with a per-expert capacity (Switch-style token dropping).

    Args:
        logits (FloatTensor): shape (tokens, experts).
        capacity (int): slots per expert.

    Returns:
        expert (LongTensor, (tokens,)), slot (LongTensor, (tokens,)), keep (BoolTensor, (tokens,)),
        gate (FloatTensor, (tokens,)).
    """
    probs = logits.softmax(dim=-1)
    gate, expert = probs.max(dim=-1)
    one_hot = F.one_hot(expert, num_classes=logits.shape[-1])
    slot = (one_hot.cumsum(dim=0) - 1).gather(1, expert.unsqueeze(1)).squeeze(1)
    keep = slot < capacity
    return expert, slot, keep, gate


def dispatch_combine(x, logits, weights, capacity):
    """x: (tokens, dim); weights: (experts, dim, dim). Returns (tokens, dim) and per-expert load."""
    n_experts = logits.shape[-1]
    expert, slot, keep, gate = route(logits, capacity)
    buffer = x.new_zeros(n_experts, capacity, x.shape[-1])
    buffer[expert[keep], slot[keep]] = x[keep]
    processed = torch.einsum("ecd,edf->ecf", buffer, weights)
    flat = processed.view(n_experts * capacity, -1)
    src = (expert * capacity + slot.clamp(max=capacity - 1)).unsqueeze(1).expand(-1, x.shape[-1])
    out = flat.gather(0, src) * (gate * keep).unsqueeze(1)
    load = torch.zeros(n_experts).index_put_((expert,), torch.ones(expert.numel()), accumulate=True)
    return out, load


def reference(x, logits, weights, capacity):
    probs = logits.softmax(-1)
    used = [0] * logits.shape[-1]
    out = torch.zeros_like(x)
    load = torch.zeros(logits.shape[-1])
    for t in range(x.shape[0]):
        e = int(probs[t].argmax())
        load[e] += 1
        if used[e] < capacity:
            out[t] = (x[t] @ weights[e]) * probs[t, e]
        used[e] += 1
    return out, load


if __name__ == "__main__":
    torch.manual_seed(0)
    x = torch.randn(20, 6)
    logits = torch.randn(20, 4)
    weights = torch.randn(4, 6, 6)
    out, load = dispatch_combine(x, logits, weights, capacity=4)
    ref_out, ref_load = reference(x, logits, weights, capacity=4)
    assert torch.allclose(out, ref_out, atol=1e-5)
    assert torch.equal(load, ref_load)
    print("ok")
