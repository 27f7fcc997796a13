import torch
from jaxtyping import Float, Int
from torch import Tensor


def dispatch(
    hidden: Float[Tensor, "tokens hidden"], topk_ids: Int[Tensor, "tokens k"]
) -> tuple[Float[Tensor, "slots hidden"], Int[Tensor, "tokens k"]]:
    k = topk_ids.shape[1]
    order = torch.argsort(topk_ids.reshape(-1), stable=True)
    recv_hidden = hidden.index_select(0, order // k)
    dispatched_ids = topk_ids.reshape(-1)[order].view(-1, k)
    return recv_hidden, dispatched_ids


def run_experts(
    recv_hidden: Float[Tensor, "slots hidden"],
    dispatched_ids: Int[Tensor, "tokens k"],
    expert_weights: Float[Tensor, "experts hidden hidden"],
) -> Float[Tensor, "slots hidden"]:
    w = expert_weights.index_select(0, dispatched_ids.reshape(-1))
    return torch.relu(torch.bmm(recv_hidden.unsqueeze(1), w).squeeze(1))


def combine(
    expert_out: Float[Tensor, "slots hidden"],
    topk_ids: Int[Tensor, "tokens k"],
    topk_weights: Float[Tensor, "tokens k"],
) -> Float[Tensor, "tokens hidden"]:
    num_tokens, k = topk_ids.shape
    order = torch.argsort(topk_ids.reshape(-1), stable=True)
    slot_weights = topk_weights.reshape(-1)[order]
    out = expert_out.new_zeros(num_tokens, expert_out.shape[1])
    out.index_add_(0, order // k, expert_out * slot_weights.unsqueeze(1))
    return out


def moe_forward(
    hidden: Float[Tensor, "tokens hidden"],
    topk_ids: Int[Tensor, "tokens k"],
    topk_weights: Float[Tensor, "tokens k"],
    expert_weights: Float[Tensor, "experts hidden hidden"],
) -> Float[Tensor, "tokens hidden"]:
    recv_hidden, topk_ids = dispatch(hidden, topk_ids)
    expert_out = run_experts(recv_hidden, topk_ids, expert_weights)
    return combine(expert_out, topk_ids, topk_weights)


if __name__ == "__main__":
    torch.manual_seed(0)
    num_tokens, hidden_size, num_experts, top_k = 6, 8, 4, 2
    hidden = torch.randn(num_tokens, hidden_size)
    expert_weights = torch.randn(num_experts, hidden_size, hidden_size) / hidden_size**0.5
    router_logits = torch.randn(num_tokens, num_experts)
    topk_weights, topk_ids = router_logits.softmax(-1).topk(top_k, dim=-1)

    out = moe_forward(hidden, topk_ids, topk_weights, expert_weights)

    ref = torch.zeros(num_tokens, hidden_size)
    for t in range(num_tokens):
        for j in range(top_k):
            e = topk_ids[t, j].item()
            ref[t] += topk_weights[t, j] * torch.relu(hidden[t] @ expert_weights[e])
    print("max |moe_out - reference| per token:", [round(v, 3) for v in (out - ref).abs().amax(dim=1).tolist()])
