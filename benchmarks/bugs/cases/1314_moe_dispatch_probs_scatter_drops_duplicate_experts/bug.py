import torch


def hash_route(token_ids, cfg):
    table = torch.arange(cfg["vocab_size"] * cfg["topk"]).reshape(cfg["vocab_size"], cfg["topk"])
    return (table * 2654435761 % 1000003 % cfg["num_experts"])[token_ids]


class TokenDispatcher:
    def __init__(self, cfg):
        self.num_experts = cfg["num_experts"]
        self.hidden_size = cfg["hidden_size"]

    def dispatch(self, hidden_states, topk_scores, topk_indices):
        t, e = hidden_states.shape[0], self.num_experts
        routing_map = torch.zeros(t, e, dtype=torch.bool, device=hidden_states.device)
        routing_map.scatter_(1, topk_indices, True)
        probs_2d = torch.zeros(t, e, dtype=topk_scores.dtype, device=hidden_states.device)
        probs_2d.scatter_(1, topk_indices, topk_scores)
        token_idx, expert_idx = routing_map.T.nonzero(as_tuple=True)[::-1]
        permuted = hidden_states.index_select(0, token_idx)
        permuted_probs = probs_2d[token_idx, expert_idx]
        return permuted, permuted_probs, token_idx, expert_idx

    def combine(self, expert_out, permuted_probs, token_idx, num_tokens):
        out = torch.zeros(num_tokens, self.hidden_size, dtype=expert_out.dtype)
        return out.index_add_(0, token_idx, expert_out * permuted_probs.unsqueeze(-1))


def moe_forward(hidden_states, token_ids, experts, cfg):
    topk_indices = hash_route(token_ids, cfg)
    topk_scores = torch.softmax(torch.ones(topk_indices.shape), dim=-1)
    dispatcher = TokenDispatcher(cfg)
    permuted, probs, token_idx, expert_idx = dispatcher.dispatch(hidden_states, topk_scores, topk_indices)
    expert_out = torch.stack([experts[e](x) for x, e in zip(permuted, expert_idx.tolist())])
    return dispatcher.combine(expert_out, probs, token_idx, hidden_states.shape[0]), topk_indices, topk_scores


if __name__ == "__main__":
    torch.manual_seed(0)
    cfg = {"num_experts": 4, "hidden_size": 8, "topk": 3, "vocab_size": 50}
    experts = [torch.nn.Linear(cfg["hidden_size"], cfg["hidden_size"]) for _ in range(cfg["num_experts"])]
    token_ids = torch.randint(0, cfg["vocab_size"], (6,))
    hidden = torch.randn(6, cfg["hidden_size"])
    with torch.no_grad():
        out, idx, scores = moe_forward(hidden, token_ids, experts, cfg)
        ref = torch.stack([sum(scores[i, k] * experts[idx[i, k]](hidden[i]) for k in range(cfg["topk"])) for i in range(6)])
    print("routes:", idx.tolist())
    print("max |out - slotwise reference|:", (out - ref).abs().max().item())
