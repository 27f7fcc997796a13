import torch
import torch.nn as nn
from jaxtyping import Float, Int


def global_max_pool(x: Float[torch.Tensor, "nodes feat"], batch: Int[torch.Tensor, "nodes"],
                    num_graphs: int) -> Float[torch.Tensor, "graphs feat"]:
    out = x.new_zeros(num_graphs, x.shape[1])
    index: Int[torch.Tensor, "nodes feat"] = batch.unsqueeze(1).expand_as(x)
    return out.scatter_reduce(0, index, x, reduce="amax")


class MoleculeRegressor(nn.Module):
    def __init__(self, in_dim: int, hidden: int):
        super().__init__()
        self.encode = nn.Linear(in_dim, hidden)
        self.head = nn.Linear(hidden, 1)

    def readout(self, x: Float[torch.Tensor, "nodes in_dim"], batch: Int[torch.Tensor, "nodes"],
                num_graphs: int) -> Float[torch.Tensor, "graphs hidden"]:
        h = self.encode(x)
        return global_max_pool(h, batch, num_graphs)

    def forward(self, x, batch, num_graphs):
        return self.head(self.readout(x, batch, num_graphs)).squeeze(-1)


def make_batch(sizes, in_dim, seed=0):
    g = torch.Generator().manual_seed(seed)
    x = torch.randn(sum(sizes), in_dim, generator=g)
    batch = torch.cat([torch.full((n,), i) for i, n in enumerate(sizes)])
    return x, batch


if __name__ == "__main__":
    torch.manual_seed(0)
    model = MoleculeRegressor(in_dim=5, hidden=6)
    x, batch = make_batch([4, 3, 5], in_dim=5)
    with torch.no_grad():
        pooled = model.readout(x, batch, 3)
        h = model.encode(x)
    print("pooled graph 1:", [round(v, 3) for v in pooled[1].tolist()])
    print("max over graph 1 nodes:", [round(v, 3) for v in h[batch == 1].max(0).values.tolist()])
