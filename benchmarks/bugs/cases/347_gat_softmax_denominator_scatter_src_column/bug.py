import torch
import torch.nn as nn
import torch.nn.functional as F
from jaxtyping import Float, Int
from torch import Tensor


def attention_aggregate(
    h_src: Float[Tensor, "edges dim"],
    logits: Float[Tensor, "edges"],
    dst: Int[Tensor, "edges"],
    num_nodes: int,
) -> Float[Tensor, "nodes dim"]:
    weights = (logits - logits.max()).exp().unsqueeze(-1)
    index = dst.unsqueeze(-1).expand_as(h_src)
    numer = h_src.new_zeros(num_nodes, h_src.size(1)).scatter_add_(0, index, h_src * weights)
    denom = h_src.new_zeros(num_nodes, h_src.size(1)).scatter_add_(0, index, weights)
    return numer / denom.clamp_min(1e-16)


class GATLayer(nn.Module):
    def __init__(self, in_dim: int, out_dim: int):
        super().__init__()
        self.lin = nn.Linear(in_dim, out_dim, bias=False)
        self.att_src = nn.Parameter(torch.randn(out_dim) * 0.1)
        self.att_dst = nn.Parameter(torch.randn(out_dim) * 0.1)

    def forward(self, x: Float[Tensor, "nodes in_dim"], edge_index: Int[Tensor, "2 edges"]) -> Float[Tensor, "nodes out_dim"]:
        h = self.lin(x)
        src, dst = edge_index
        logits = F.leaky_relu((h[src] * self.att_src).sum(-1) + (h[dst] * self.att_dst).sum(-1), 0.2)
        return attention_aggregate(h[src], logits, dst, x.size(0))


if __name__ == "__main__":
    torch.manual_seed(0)
    num_nodes = 6
    loops = torch.arange(num_nodes)
    edge_index = torch.cat([torch.randint(0, num_nodes, (2, 14)), torch.stack([loops, loops])], dim=1)
    layer = GATLayer(5, 4)
    out = layer(torch.randn(num_nodes, 5), edge_index)
    print("node outputs:", out)
