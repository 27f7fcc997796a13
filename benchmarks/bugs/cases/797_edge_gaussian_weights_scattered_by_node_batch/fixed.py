import torch
from jaxtyping import Float, Int
from torch import nn


class GaussianDistanceNorm(nn.Module):
    """exp(-d^2 / 2s) edge weights, normalized over the edges leaving each node."""

    def __init__(self):
        super().__init__()
        self.log_scale = nn.Parameter(torch.zeros(1))

    def forward(
        self,
        edge_dist: Float[torch.Tensor, "edges"],
        edge_index: Int[torch.Tensor, "2 edges"],
        batch: Int[torch.Tensor, "nodes"],
    ) -> Float[torch.Tensor, "edges"]:
        weights = torch.exp(-0.5 * edge_dist.pow(2) / self.log_scale.exp())
        totals = weights.new_zeros(batch.numel()).scatter_add_(0, edge_index[0], weights)
        return weights / totals[edge_index[0]]


def collate_chains(graphs):
    """graphs: list of (positions (n, 3), bonds (2, n - 1)) chain molecules, bonds stored once."""
    pos, edges, batch, offset = [], [], [], 0
    for gid, (p, e) in enumerate(graphs):
        pos.append(p)
        edges.append(e + offset)
        batch.append(torch.full((p.shape[0],), gid))
        offset += p.shape[0]
    return torch.cat(pos), torch.cat(edges, dim=1), torch.cat(batch)


def chain(n, seed):
    p = torch.randn(n, 3, generator=torch.Generator().manual_seed(seed)).cumsum(0)
    return p, torch.stack([torch.arange(n - 1), torch.arange(1, n)])


if __name__ == "__main__":
    pos, edge_index, batch = collate_chains([chain(5, 0), chain(4, 1)])
    dist = (pos[edge_index[0]] - pos[edge_index[1]]).norm(dim=-1)
    layer = GaussianDistanceNorm()
    with torch.no_grad():
        out = layer(dist, edge_index, batch)
        w = [float(torch.exp(-0.5 * d ** 2)) for d in dist]
        for e in range(dist.numel()):
            src_node = int(edge_index[0, e])
            total = sum(w[k] for k in range(dist.numel()) if int(edge_index[0, k]) == src_node)
            assert abs(float(out[e]) - w[e] / total) < 1e-6, e
    print("ok")
