import torch
import torch.nn as nn
from jaxtyping import Float, Int
from torch import Tensor


class GatedReadout(nn.Module):
    """Graph-level readout: sum of node features weighted by a learned gate."""

    def __init__(self, dim: int):
        super().__init__()
        self.gate = nn.Sequential(nn.Linear(dim, 1), nn.Sigmoid())
        self.dim = dim

    def forward(
        self,
        x: Float[Tensor, "nodes dim"],
        batch: Int[Tensor, "nodes"],
        num_graphs: int,
    ) -> Float[Tensor, "graphs dim"]:
        g: Float[Tensor, "nodes 1"] = self.gate(x)
        weighted: Float[Tensor, "nodes dim"] = g * x
        index: Int[Tensor, "nodes dim"] = batch.unsqueeze(-1).expand(-1, self.dim)
        out = x.new_zeros(num_graphs, self.dim)
        return out.scatter_add_(0, index, g)


def predict(readout: GatedReadout, head: nn.Linear, x, batch, num_graphs):
    return head(readout(x, batch, num_graphs)).squeeze(-1)


if __name__ == "__main__":
    torch.manual_seed(0)
    readout, head = GatedReadout(6), nn.Linear(6, 1)
    x = torch.randn(9, 6)
    batch = torch.tensor([0, 0, 0, 1, 1, 2, 2, 2, 2])
    print(predict(readout, head, x, batch, num_graphs=3))
