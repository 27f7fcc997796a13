import torch
import torch.nn as nn
import torch.nn.functional as F


class TextExperts(nn.Module):
    r"""
    Bank of SwiGLU experts applied densely, weighted by the router.

    Args:
        num_experts (`int`): number of routed experts.
        hidden_size (`int`): model width.
        intermediate_size (`int`): expert inner width.
    """

    def __init__(self, num_experts, hidden_size, intermediate_size):
        super().__init__()
        self.num_experts = num_experts
        self.gate_up_proj = nn.Parameter(torch.randn(num_experts, hidden_size, 2 * intermediate_size) * 0.3)
        self.down_proj = nn.Parameter(torch.randn(num_experts, intermediate_size, hidden_size) * 0.3)

    def forward(self, hidden_states, routing_weights):
        r"""
        Args:
            hidden_states (`torch.Tensor` of shape `(num_tokens, hidden_size)`):
                Flattened token states.
            routing_weights (`torch.Tensor` of shape `(num_tokens, num_experts)`):
                Dense routing weights, zero for the experts a token is not sent to.

        Returns:
            `torch.Tensor` of shape `(num_tokens, hidden_size)`.
        """
        gate_up = torch.einsum("th,ehi->eti", hidden_states, self.gate_up_proj)
        gate, up = gate_up.chunk(2, dim=-1)
        expert_out = torch.einsum("eti,eih->eth", F.silu(gate) * up, self.down_proj)
        weights = routing_weights.transpose(0, 1).unsqueeze(-1).to(expert_out.dtype)
        return (expert_out * weights).sum(dim=0)


class SparseMoeBlock(nn.Module):
    r"""
    Top-k MoE block whose router runs in float32 while the experts run in the model dtype.

    Args:
        config (`dict`): needs `hidden_size`, `num_experts`, `num_experts_per_tok`, `moe_intermediate_size`.
    """

    def __init__(self, config):
        super().__init__()
        self.hidden_size = config["hidden_size"]
        self.num_experts = config["num_experts"]
        self.top_k = config["num_experts_per_tok"]
        self.gate = nn.Linear(self.hidden_size, self.num_experts, bias=False)
        self.experts = TextExperts(self.num_experts, self.hidden_size, config["moe_intermediate_size"])

    def forward(self, hidden_states):
        r"""
        Args:
            hidden_states (`torch.Tensor` of shape `(batch_size, sequence_length, hidden_size)`):
                Input states in the model dtype (bfloat16 here).

        Returns:
            routed_out (`torch.Tensor` of shape `(batch_size, sequence_length, hidden_size)`),
            router_logits (`torch.Tensor` of shape `(batch_size * sequence_length, num_experts)`), float32.
        """
        batch_size = hidden_states.shape[0]
        hidden_states = hidden_states.reshape(-1, self.hidden_size)
        router_logits = self.gate(hidden_states.float())
        routing_weights = F.softmax(router_logits, dim=-1, dtype=torch.float)
        routing_weights, router_indices = torch.topk(routing_weights, self.top_k, dim=-1)
        routing_weights = routing_weights / routing_weights.sum(dim=-1, keepdim=True)
        routing_weights = routing_weights.to(router_logits.dtype)
        router_weights = torch.zeros_like(router_logits).scatter_(1, router_indices, routing_weights)
        routed_out = self.experts(hidden_states, router_weights)
        return routed_out.reshape(batch_size, -1, self.hidden_size), router_logits


if __name__ == "__main__":
    torch.manual_seed(0)
    config = {"hidden_size": 32, "num_experts": 8, "num_experts_per_tok": 2, "moe_intermediate_size": 16}
    block = SparseMoeBlock(config)
    block.experts.to(torch.bfloat16)  # the router stays in float32
    x = torch.randn(2, 5, 32, dtype=torch.bfloat16)
    out, router_logits = block(x)
    assert out.dtype == torch.bfloat16 and out.shape == (2, 5, 32)

    flat = x.reshape(-1, 32)
    experts = block.experts
    for t in range(10):
        probs = torch.softmax(block.gate(flat[t].float()), dim=-1)
        top = sorted(range(8), key=lambda e: probs[e].item(), reverse=True)[:2]
        total = probs[top[0]] + probs[top[1]]
        ref = torch.zeros(32)
        for e in top:
            gate, up = (flat[t] @ experts.gate_up_proj[e]).chunk(2)
            y = (F.silu(gate) * up) @ experts.down_proj[e]
            ref = ref + y.float() * (probs[e] / total).item()
        assert torch.allclose(out.reshape(-1, 32)[t].float(), ref, rtol=2e-2, atol=2e-2), t
    print("ok")
