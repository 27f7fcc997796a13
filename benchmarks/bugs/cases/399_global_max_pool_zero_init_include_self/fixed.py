import torch
import torch.nn as nn
from jaxtyping import Float, Int


def global_max_pool(
    x: Float[torch.Tensor, "nodes dim"], batch: Int[torch.Tensor, " nodes"], num_graphs: int
) -> Float[torch.Tensor, "graphs dim"]:
    index = batch.unsqueeze(-1).expand_as(x)
    out = x.new_zeros(num_graphs, x.size(-1))
    return out.scatter_reduce(0, index, x, reduce="amax", include_self=False)


class GraphReadout(nn.Module):
    def __init__(self, in_dim: int, hidden: int, n_classes: int):
        super().__init__()
        self.node_mlp = nn.Sequential(nn.Linear(in_dim, hidden), nn.Tanh())
        self.head = nn.Linear(hidden, n_classes)

    def forward(
        self, x: Float[torch.Tensor, "nodes in_dim"], batch: Int[torch.Tensor, " nodes"], num_graphs: int
    ) -> tuple:
        h = self.node_mlp(x)
        pooled = global_max_pool(h, batch, num_graphs)
        return self.head(pooled), pooled, h


if __name__ == "__main__":
    torch.manual_seed(0)
    model = GraphReadout(in_dim=5, hidden=6, n_classes=2)
    x = torch.randn(9, 5)
    batch = torch.tensor([0, 0, 0, 1, 1, 2, 2, 2, 2])
    logits, pooled, h = model(x, batch, num_graphs=3)
    for g in range(3):
        for d in range(h.size(1)):
            best = max(h[n, d].item() for n in range(9) if batch[n].item() == g)
            assert abs(pooled[g, d].item() - best) < 1e-6
    print("ok")
