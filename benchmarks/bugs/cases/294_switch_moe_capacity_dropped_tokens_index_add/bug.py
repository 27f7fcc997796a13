import math

import torch
import torch.nn as nn
from jaxtyping import Float, Int
from torch import Tensor


class SwitchFeedForward(nn.Module):
    def __init__(self, d_model: int, d_ff: int, n_experts: int, capacity_factor: float):
        super().__init__()
        self.n_experts, self.capacity_factor = n_experts, capacity_factor
        self.switch = nn.Linear(d_model, n_experts)
        self.experts = nn.ModuleList(nn.Sequential(nn.Linear(d_model, d_ff), nn.ReLU(), nn.Linear(d_ff, d_model)) for _ in range(n_experts))

    def route(self, x: Float[Tensor, "tokens d_model"]) -> tuple[Float[Tensor, "tokens"], Int[Tensor, "tokens"]]:
        route_prob = torch.softmax(self.switch(x), dim=-1)
        route_prob_max, routes = torch.max(route_prob, dim=-1)
        return route_prob_max, routes

    def forward(self, x: Float[Tensor, "seq batch d_model"]) -> Float[Tensor, "seq batch d_model"]:
        seq_len, batch_size, d_model = x.shape
        x = x.reshape(-1, d_model)
        route_prob_max, routes = self.route(x)
        capacity = math.ceil(self.capacity_factor * x.shape[0] / self.n_experts)
        final_output = x.clone()  # dropped tokens pass through unchanged
        for i, expert in enumerate(self.experts):
            indexes: Int[Tensor, "routed"] = torch.eq(routes, i).nonzero(as_tuple=True)[0]
            kept: Int[Tensor, "kept"] = indexes[:capacity]
            expert_output: Float[Tensor, "kept d_model"] = expert(x[kept]) * route_prob_max[kept, None]
            final_output[indexes] = 0.0
            final_output.index_add_(0, indexes, expert_output)
        return final_output.view(seq_len, batch_size, d_model)


if __name__ == "__main__":
    torch.manual_seed(0)
    ffn = SwitchFeedForward(d_model=8, d_ff=16, n_experts=3, capacity_factor=1.0)
    x = torch.randn(5, 3, 8)
    with torch.no_grad():
        y = ffn(x)
    print("output:", tuple(y.shape))
