import torch
import torch.nn as nn
import torch.nn.functional as F


def create_feedforward_network(embed_dim, ff_dim):
    return nn.Sequential(nn.Linear(embed_dim, ff_dim), nn.ReLU(), nn.Linear(ff_dim, embed_dim))


def load_balanced_loss(router_probs, expert_mask):
    # router_probs: [tokens_per_batch, num_experts]
    # expert_mask: [tokens_per_batch, num_experts]
    num_experts = expert_mask.shape[-1]
    density = expert_mask.float().mean(dim=0)
    density_proxy = router_probs.mean(dim=0)
    return (density_proxy * density).mean() * num_experts**2


class Router(nn.Module):
    def __init__(self, embed_dim, num_experts, expert_capacity):
        super().__init__()
        self.num_experts = num_experts
        self.expert_capacity = expert_capacity
        self.route = nn.Linear(embed_dim, num_experts)

    def forward(self, inputs):
        # inputs: [tokens_per_batch, embed_dim]
        # router_logits / router_probs: [tokens_per_batch, num_experts]
        router_logits = self.route(inputs)
        router_probs = F.softmax(router_logits, dim=-1)
        # expert_gate / expert_index: [tokens_per_batch, 1]
        expert_gate, expert_index = router_probs.topk(1, dim=-1)
        # expert_mask: [tokens_per_batch, num_experts]
        expert_mask = F.one_hot(expert_index.squeeze(-1), self.num_experts)
        self.aux_loss = load_balanced_loss(router_probs, expert_mask)
        # position_in_expert: [tokens_per_batch, num_experts], slot of each token in its expert buffer
        position_in_expert = (torch.cumsum(expert_mask, dim=0) - 1) * expert_mask
        # keep only tokens that fit within expert capacity
        expert_mask = expert_mask * (position_in_expert < self.expert_capacity)
        position_in_expert = position_in_expert * expert_mask
        # expert_mask_flat: [tokens_per_batch]
        expert_mask_flat = expert_mask.sum(dim=-1)
        expert_gate = expert_gate.squeeze(-1) * expert_mask_flat
        # slot_one_hot: [tokens_per_batch, num_experts, expert_capacity]
        slot_one_hot = F.one_hot(position_in_expert, self.expert_capacity)
        # combined_tensor: [tokens_per_batch, num_experts, expert_capacity]
        combined_tensor = expert_gate[:, None, None] * expert_mask[:, :, None] * slot_one_hot
        dispatch_tensor = (combined_tensor > 0).to(inputs.dtype)
        return dispatch_tensor, combined_tensor


class Switch(nn.Module):
    def __init__(self, num_experts, embed_dim, ff_dim, num_tokens_per_batch, capacity_factor=1.0):
        super().__init__()
        self.num_experts = num_experts
        self.embed_dim = embed_dim
        self.experts = nn.ModuleList([create_feedforward_network(embed_dim, ff_dim) for _ in range(num_experts)])
        expert_capacity = int(capacity_factor * num_tokens_per_batch / num_experts)
        self.router = Router(embed_dim, num_experts, expert_capacity)

    def forward(self, inputs):
        # inputs: [batch_size, num_tokens_per_example, embed_dim]
        batch_size, num_tokens_per_example, _ = inputs.shape
        tokens = inputs.reshape(-1, self.embed_dim)
        dispatch_tensor, combine_tensor = self.router(tokens)
        # expert_inputs: [num_experts, expert_capacity, embed_dim]
        expert_inputs = torch.einsum("ab,acd->cdb", tokens, dispatch_tensor)
        expert_outputs = torch.stack([self.experts[i](expert_inputs[i]) for i in range(self.num_experts)])
        # outputs: [tokens_per_batch, embed_dim]
        outputs = torch.einsum("abc,xab->xc", expert_outputs, combine_tensor)
        return outputs.reshape(batch_size, num_tokens_per_example, self.embed_dim), combine_tensor


if __name__ == "__main__":
    torch.manual_seed(0)
    batch_size, seq_len, embed_dim, num_experts = 2, 6, 8, 3
    layer = Switch(num_experts, embed_dim, ff_dim=16, num_tokens_per_batch=batch_size * seq_len)
    inputs = torch.randn(batch_size, seq_len, embed_dim)
    with torch.no_grad():
        outputs, combine = layer(inputs)
        tokens = inputs.reshape(-1, embed_dim)
        probs = F.softmax(layer.router.route(tokens), dim=-1)
        capacity = layer.router.expert_capacity
        ref_combine = torch.zeros(tokens.shape[0], num_experts, capacity)
        ref_out = torch.zeros(tokens.shape[0], embed_dim)
        filled = [0] * num_experts
        for t in range(tokens.shape[0]):
            e = int(probs[t].argmax())
            if filled[e] < capacity:
                ref_combine[t, e, filled[e]] = probs[t, e]
                filled[e] += 1
        for t in range(tokens.shape[0]):
            for e in range(num_experts):
                for s in range(capacity):
                    if ref_combine[t, e, s] > 0:
                        ref_out[t] += ref_combine[t, e, s] * layer.experts[e](tokens[t])
    assert torch.allclose(combine, ref_combine, atol=1e-6)
    assert torch.allclose(outputs.reshape(-1, embed_dim), ref_out, atol=1e-5)
    print("ok")
