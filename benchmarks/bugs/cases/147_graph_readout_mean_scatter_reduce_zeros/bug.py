import torch
import torch.nn as nn
from jaxtyping import Float, Int
from torch import Tensor


def global_mean_pool(x: Float[Tensor, "nodes feat"], batch: Int[Tensor, "nodes"], num_graphs: int) -> Float[Tensor, "graphs feat"]:
    out = x.new_zeros(num_graphs, x.size(-1))
    return out.scatter_reduce_(0, batch.unsqueeze(-1).expand_as(x), x, reduce="mean")


class GraphRegressor(nn.Module):
    def __init__(self, in_dim: int, hidden: int):
        super().__init__()
        self.lin1 = nn.Linear(in_dim, hidden)
        self.lin2 = nn.Linear(hidden, hidden)
        self.head = nn.Linear(hidden, 1)

    def propagate(self, h: Float[Tensor, "nodes hidden"], edge_index: Int[Tensor, "2 edges"]) -> Float[Tensor, "nodes hidden"]:
        src, dst = edge_index
        return h.index_add(0, dst, h.index_select(0, src))

    def forward(
        self,
        x: Float[Tensor, "nodes in_dim"],
        edge_index: Int[Tensor, "2 edges"],
        batch: Int[Tensor, "nodes"],
        num_graphs: int,
    ) -> Float[Tensor, "graphs"]:
        h = torch.relu(self.lin1(x))
        h = torch.relu(self.lin2(self.propagate(h, edge_index)))
        return self.head(global_mean_pool(h, batch, num_graphs)).squeeze(-1)


def collate(graphs):
    xs, edges, batch, offset = [], [], [], 0
    for g, (x, e) in enumerate(graphs):
        xs.append(x)
        edges.append(e + offset)
        batch.append(torch.full((x.size(0),), g, dtype=torch.long))
        offset += x.size(0)
    return torch.cat(xs), torch.cat(edges, dim=1), torch.cat(batch), len(graphs)


if __name__ == "__main__":
    torch.manual_seed(0)
    graphs = []
    for n in (3, 5, 2):
        x = torch.rand(n, 4)
        e = torch.stack([torch.arange(n), (torch.arange(n) + 1) % n])
        graphs.append((x, e))
    x, edge_index, batch, num_graphs = collate(graphs)
    pooled = global_mean_pool(x, batch, num_graphs)
    print("pooled feature 0 per graph:", pooled[:, 0].tolist())
    print("true means:", [g[0][:, 0].mean().item() for g in graphs])
    model = GraphRegressor(4, 8)
    print("predictions:", model(x, edge_index, batch, num_graphs).tolist())
