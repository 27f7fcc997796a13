import torch
import torch.nn.functional as F


def ref_fused_moe(hidden_states, w13, w2, topk_weights, topk_ids, global_num_experts, ep_rank, ep_size):
    # hidden_states: [num_tokens, hidden]
    # w13: [num_local_experts, 2 * intermediate, hidden]   (this EP rank's slice)
    # w2:  [num_local_experts, hidden, intermediate]
    # topk_weights / topk_ids: [num_tokens, top_k], ids are global expert ids
    num_local_experts = global_num_experts // ep_size
    expert_start_id = ep_rank * num_local_experts
    expert_end_id = expert_start_id + num_local_experts
    out = torch.zeros_like(hidden_states)
    for expert_id in range(global_num_experts):
        if expert_id < expert_start_id or expert_id >= expert_end_id:
            continue
        token_idx, slot_idx = (topk_ids == expert_id).nonzero(as_tuple=True)
        if token_idx.numel() == 0:
            continue
        x = hidden_states.index_select(0, token_idx)  # [n, hidden]
        gate_up = x @ w13[expert_id].t()  # [n, 2 * intermediate]
        gate, up = gate_up.chunk(2, dim=-1)
        y = (F.silu(gate) * up) @ w2[expert_id].t()  # [n, hidden]
        out.index_add_(0, token_idx, y * topk_weights[token_idx, slot_idx, None])
    return out


def route(router_logits, top_k):
    probs = router_logits.softmax(dim=-1)
    weights, ids = probs.topk(top_k, dim=-1)
    return weights / weights.sum(dim=-1, keepdim=True), ids


if __name__ == "__main__":
    torch.manual_seed(0)
    num_tokens, hidden, inter, num_experts, top_k, ep_size = 6, 16, 32, 8, 2, 2
    x = torch.randn(num_tokens, hidden)
    full_w13 = torch.randn(num_experts, 2 * inter, hidden) * 0.1
    full_w2 = torch.randn(num_experts, hidden, inter) * 0.1
    weights, ids = route(torch.randn(num_tokens, num_experts), top_k)
    total = torch.zeros_like(x)
    for rank in range(ep_size):
        lo, hi = rank * num_experts // ep_size, (rank + 1) * num_experts // ep_size
        total += ref_fused_moe(x, full_w13[lo:hi], full_w2[lo:hi], weights, ids, num_experts, rank, ep_size)
    ref = torch.zeros_like(x)
    for t in range(num_tokens):
        for k in range(top_k):
            e = ids[t, k].item()
            g, u = (full_w13[e] @ x[t]).chunk(2)
            ref[t] += weights[t, k] * (full_w2[e] @ (F.silu(g) * u))
    print("max |diff| vs dense reference:", (total - ref).abs().max().item())
