import torch
import torch.nn as nn
import torch.nn.functional as F


def load_balancing_loss_func(gate_logits, num_experts, top_k=2):
    """Auxiliary load-balancing loss of the Switch Transformer, equations (4)-(6).

    Args:
        gate_logits: tuple with one tensor per layer, each of shape
            [batch_size * sequence_length, num_experts], the router logits.
        num_experts: number of experts.
        top_k: experts selected per token.

    Returns:
        Scalar loss, num_experts * sum_i f_i * P_i, where f_i is the fraction of tokens routed to
        expert i and P_i the mean router probability of expert i.
    """
    if isinstance(gate_logits, tuple):
        gate_logits = torch.cat(gate_logits, dim=0)

    routing_weights = F.softmax(gate_logits, dim=-1)
    _, selected_experts = torch.topk(routing_weights, top_k, dim=-1)
    expert_mask = F.one_hot(selected_experts, num_experts)

    # fraction of tokens routed to each expert, per top-k slot: [top_k, num_experts]
    tokens_per_expert = torch.mean(expert_mask.float(), dim=0)
    # mean router probability of each expert over all tokens: [num_experts]
    router_prob_per_expert = torch.mean(routing_weights, dim=0)
    overall_loss = torch.sum(tokens_per_expert * router_prob_per_expert.unsqueeze(0))
    return overall_loss * num_experts


class MixtralSparseMoeBlock(nn.Module):
    """Top-k routed mixture of expert MLPs.

    forward() takes hidden_states [batch, seq, hidden] and returns the mixed output of the same
    shape plus the router logits [batch * seq, num_experts].
    """

    def __init__(self, hidden, ffn, num_experts, top_k):
        super().__init__()
        self.top_k = top_k
        self.gate = nn.Linear(hidden, num_experts, bias=False)
        self.experts = nn.ModuleList(
            nn.Sequential(nn.Linear(hidden, ffn), nn.SiLU(), nn.Linear(ffn, hidden)) for _ in range(num_experts)
        )

    def forward(self, hidden_states):
        batch, seq, hidden = hidden_states.shape
        flat = hidden_states.view(-1, hidden)
        router_logits = self.gate(flat)
        routing_weights = F.softmax(router_logits, dim=1, dtype=torch.float)
        routing_weights, selected_experts = torch.topk(routing_weights, self.top_k, dim=-1)
        routing_weights = routing_weights / routing_weights.sum(dim=-1, keepdim=True)
        out = torch.zeros_like(flat)
        for expert_idx, expert in enumerate(self.experts):
            token_idx, slot = torch.where(selected_experts == expert_idx)
            if token_idx.numel() == 0:
                continue
            expert_out = expert(flat[token_idx]) * routing_weights[token_idx, slot, None]
            out.index_add_(0, token_idx, expert_out.to(flat.dtype))
        return out.view(batch, seq, hidden), router_logits


class TinyMixtral(nn.Module):
    """Stack of MoE blocks with residual connections; input [batch, seq, hidden]."""

    def __init__(self, hidden=16, ffn=32, num_experts=4, top_k=2, num_layers=2):
        super().__init__()
        self.num_experts, self.top_k = num_experts, top_k
        self.layers = nn.ModuleList(MixtralSparseMoeBlock(hidden, ffn, num_experts, top_k) for _ in range(num_layers))

    def forward(self, x):
        all_router_logits = []
        for layer in self.layers:
            out, router_logits = layer(x)
            x = x + out
            all_router_logits.append(router_logits)
        aux_loss = load_balancing_loss_func(tuple(all_router_logits), self.num_experts, self.top_k)
        return x, aux_loss


def reference_aux_loss(router_logits_per_layer, num_experts, top_k):
    rows = [row for layer in router_logits_per_layer for row in layer.tolist()]
    n = len(rows)
    f = [0.0] * num_experts
    p = [0.0] * num_experts
    for row in rows:
        probs = torch.softmax(torch.tensor(row), dim=-1).tolist()
        chosen = sorted(range(num_experts), key=lambda e: -probs[e])[:top_k]
        for e in chosen:
            f[e] += 1.0 / n
        for e in range(num_experts):
            p[e] += probs[e] / n
    return num_experts * sum(f[e] * p[e] for e in range(num_experts))


if __name__ == "__main__":
    torch.manual_seed(0)
    model = TinyMixtral()
    x = torch.randn(3, 5, 16)
    logits_seen = []
    hooks = [layer.gate.register_forward_hook(lambda m, i, o: logits_seen.append(o.detach())) for layer in model.layers]
    _, aux_loss = model(x)
    for h in hooks:
        h.remove()
    expected = reference_aux_loss(logits_seen, model.num_experts, model.top_k)
    assert abs(aux_loss.item() - expected) < 1e-5, (aux_loss.item(), expected)
    aux_loss.backward()
    grad = sum(layer.gate.weight.grad.abs().sum() for layer in model.layers)
    assert grad.item() > 1e-3
    print("ok")
