import torch
import torch.nn as nn
from jaxtyping import Float, Int
from torch import Tensor


class TensorEmbedding(nn.Module):
    """Initial per-atom embedding of a TensorNet-style model: every edge (i, j)
    gets a mixed embedding of both atom types, which is scattered back to atom i."""

    def __init__(self, hidden_channels: int, max_z: int = 32):
        super().__init__()
        self.hidden_channels = hidden_channels
        self.emb = nn.Embedding(max_z, hidden_channels)
        self.emb2 = nn.Linear(2 * hidden_channels, hidden_channels)

    def pair_embedding(
        self, z: Int[Tensor, "n"], edge_index: Int[Tensor, "2 e"]
    ) -> Float[Tensor, "e h"]:
        Z = self.emb(z)
        Zij = Z.index_select(0, edge_index.view(-1)).view(-1, self.hidden_channels * 2)
        return self.emb2(Zij)

    def forward(
        self,
        z: Int[Tensor, "n"],
        edge_index: Int[Tensor, "2 e"],
        edge_weight: Float[Tensor, "e"],
    ) -> Float[Tensor, "n h"]:
        Zij = self.pair_embedding(z, edge_index) * edge_weight[:, None]
        out = torch.zeros(z.size(0), self.hidden_channels, dtype=Zij.dtype)
        return out.index_add_(0, edge_index[0], Zij)


def radius_graph(pos: Float[Tensor, "n 3"], cutoff: float) -> tuple[Int[Tensor, "2 e"], Float[Tensor, "e"]]:
    dist = torch.cdist(pos, pos)
    mask = (dist < cutoff) & ~torch.eye(pos.size(0), dtype=torch.bool)
    edge_index = mask.nonzero().t()
    return edge_index, dist[edge_index[0], edge_index[1]]


if __name__ == "__main__":
    torch.manual_seed(0)
    z = torch.tensor([6, 1, 1, 8, 1, 7, 1])
    pos = torch.randn(7, 3)
    edge_index, dist = radius_graph(pos, cutoff=2.0)
    model = TensorEmbedding(hidden_channels=8)
    pairs = model.pair_embedding(z, edge_index)
    Z = model.emb(z)
    ref = torch.stack([model.emb2(torch.cat([Z[i], Z[j]])) for i, j in edge_index.t().tolist()])
    print("edges:", edge_index.size(1))
    print("max |pair - per-edge reference|:", (pairs - ref).abs().max().item())
    print("node embedding:", model(z, edge_index, torch.cos(dist)).shape)
