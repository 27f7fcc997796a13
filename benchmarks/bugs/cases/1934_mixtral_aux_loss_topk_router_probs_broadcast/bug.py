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

    routing_weights, selected_experts = torch.topk(gate_logits, top_k, dim=-1)
    routing_weights = routing_weights.softmax(dim=-1)

    # cast the expert indices to int64, otherwise one-hot encoding will fail
    if selected_experts.dtype != torch.int64:
        selected_experts = selected_experts.to(torch.int64)
    if len(selected_experts.shape) == 2:
        selected_experts = selected_experts.unsqueeze(2)

    expert_mask = F.one_hot(selected_experts, num_experts)
    # for a given token, determine if it was routed to a given expert
    expert_mask = torch.max(expert_mask, axis=-2).values
    expert_mask = expert_mask.to(torch.float32)
    tokens_per_group_and_expert = torch.mean(expert_mask, axis=-2)

    router_prob_per_group_and_expert = torch.mean(routing_weights, axis=-1)
    return torch.mean(tokens_per_group_and_expert * router_prob_per_group_and_expert.unsqueeze(-1)) * (num_experts**2)


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


if __name__ == "__main__":
    torch.manual_seed(0)
    model = TinyMixtral()
    x = torch.randn(3, 5, 16)
    _, aux_loss = model(x)
    aux_loss.backward()
    grad = sum(layer.gate.weight.grad.abs().sum() for layer in model.layers)
    print(f"aux loss {aux_loss.item():.6f}, |d aux / d router| = {grad.item():.3e}")
