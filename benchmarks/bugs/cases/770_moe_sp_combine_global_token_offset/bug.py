import torch


def route(x_local, router_weight, top_k):
    tokens = x_local.reshape(-1, x_local.shape[-1])
    scores = torch.softmax(tokens @ router_weight, dim=-1)
    top_scores, experts = scores.topk(top_k, dim=-1)
    token_indices = torch.arange(tokens.shape[0]).repeat_interleave(top_k)
    return tokens, top_scores.reshape(-1), experts.reshape(-1), token_indices


def run_experts(tokens, experts, token_indices, expert_weights):
    routed_input = tokens[token_indices]
    return torch.bmm(routed_input.unsqueeze(1), expert_weights[experts]).squeeze(1)


def combine(out_global, routed_output, scores, token_indices, x_local, sp_rank):
    weighted = routed_output * scores.unsqueeze(-1)
    num_local_tokens = x_local.shape[0] * x_local.shape[1]
    global_indices = token_indices + num_local_tokens * sp_rank
    index = global_indices.unsqueeze(-1).expand_as(weighted)
    out_global.scatter_add_(0, index, weighted)


def moe_forward_sequence_parallel(x, params, cfg):
    batch, seq_len, dim = x.shape
    local_len = seq_len // cfg["sp_size"]
    out = torch.zeros(batch * seq_len, dim)
    for sp_rank in range(cfg["sp_size"]):
        x_local = x[:, sp_rank * local_len:(sp_rank + 1) * local_len]
        tokens, scores, experts, token_indices = route(x_local, params["router"], cfg["top_k"])
        routed = run_experts(tokens, experts, token_indices, params["experts"])
        combine(out, routed, scores, token_indices, x_local, sp_rank)
    return out.view(batch, seq_len, dim)


def build(cfg, seed=0):
    g = torch.Generator().manual_seed(seed)
    params = {
        "router": torch.randn(cfg["dim"], cfg["num_experts"], generator=g),
        "experts": torch.randn(cfg["num_experts"], cfg["dim"], cfg["dim"], generator=g) * 0.1,
    }
    x = torch.randn(cfg["batch"], cfg["seq_len"], cfg["dim"], generator=g)
    return x, params


if __name__ == "__main__":
    cfg = {"batch": 2, "seq_len": 8, "dim": 4, "num_experts": 4, "top_k": 2, "sp_size": 2}
    x, params = build(cfg)
    y_sp = moe_forward_sequence_parallel(x, params, cfg)
    y_dense = moe_forward_sequence_parallel(x, params, dict(cfg, sp_size=1))
    print("max |sp - dense|:", (y_sp - y_dense).abs().max().item())
    print("per-position zero rows:", (y_sp.abs().sum(-1) == 0).int().tolist())
