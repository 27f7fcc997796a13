import torch
import torch.nn as nn
from jaxtyping import Float, Int


class SimpleGATLayer(nn.Module):
    def __init__(self, dim: int):
        super().__init__()
        self.att = nn.Linear(2 * dim, 1)

    def forward(self, x: Float[torch.Tensor, "nodes dim"], edge_index: Int[torch.Tensor, "2 edges"]):
        n = x.shape[0]
        loops = torch.arange(n).unsqueeze(0).repeat(2, 1)
        ei = torch.cat([edge_index, loops], dim=1)
        src, dst = ei
        score = self.att(torch.cat([x[src], x[dst]], dim=-1)).squeeze(-1).exp()
        denom = torch.zeros(n).scatter_add_(0, dst, score)
        alpha = score / denom[dst]
        return ei, alpha


def weighted_in_strength(edge_weight: Float[torch.Tensor, "edges"], att_edges: Int[torch.Tensor, "2 e2"],
                         alpha: Float[torch.Tensor, "e2"], num_nodes: int) -> Float[torch.Tensor, "nodes"]:
    num_edges = edge_weight.shape[0]
    dst = att_edges[1, :num_edges]
    contrib = edge_weight * alpha[:num_edges]
    return torch.zeros(num_nodes).scatter_add_(0, dst, contrib)


if __name__ == "__main__":
    torch.manual_seed(0)
    x = torch.randn(5, 4)
    edge_index = torch.tensor([[0, 1, 2, 3, 4, 0], [1, 2, 3, 4, 0, 2]])
    edge_weight = torch.rand(6)
    layer = SimpleGATLayer(4)
    att_edges, alpha = layer(x, edge_index)
    out = weighted_in_strength(edge_weight, att_edges, alpha, 5)
    ref = [0.0] * 5
    for e in range(6):
        ref[int(edge_index[1, e])] += float((edge_weight[e] * alpha[e]).detach())
    assert torch.allclose(out, torch.tensor(ref))
    print("ok")
