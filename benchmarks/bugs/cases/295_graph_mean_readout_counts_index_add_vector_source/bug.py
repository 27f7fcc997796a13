import torch
import torch.nn as nn
from jaxtyping import Float, Int
from torch import Tensor


def global_mean_pool(x: Float[Tensor, "nodes channels"], batch: Int[Tensor, "nodes"], num_graphs: int) -> Float[Tensor, "graphs channels"]:
    sums = x.new_zeros(num_graphs, x.shape[-1]).index_add_(0, batch, x)
    counts = torch.zeros_like(sums).index_add_(0, batch, x.new_ones(x.shape[0]))
    return sums / counts.clamp(min=1)


class GINLayer(nn.Module):
    def __init__(self, in_channels: int, out_channels: int):
        super().__init__()
        self.eps = nn.Parameter(torch.zeros(1))
        self.mlp = nn.Sequential(nn.Linear(in_channels, out_channels), nn.ReLU(), nn.Linear(out_channels, out_channels))

    def forward(self, x: Float[Tensor, "nodes in_channels"], edge_index: Int[Tensor, "2 edges"]) -> Float[Tensor, "nodes out_channels"]:
        src, dst = edge_index
        agg = torch.zeros_like(x).index_add_(0, dst, x[src])
        return self.mlp((1 + self.eps) * x + agg)


class GraphClassifier(nn.Module):
    def __init__(self, in_channels: int, hidden: int, num_classes: int):
        super().__init__()
        self.conv1 = GINLayer(in_channels, hidden)
        self.conv2 = GINLayer(hidden, hidden)
        self.head = nn.Linear(hidden, num_classes)

    def forward(self, x: Float[Tensor, "nodes in_channels"], edge_index: Int[Tensor, "2 edges"], batch: Int[Tensor, "nodes"], num_graphs: int) -> Float[Tensor, "graphs classes"]:
        h = torch.relu(self.conv1(x, edge_index))
        h = torch.relu(self.conv2(h, edge_index))
        return self.head(global_mean_pool(h, batch, num_graphs))


if __name__ == "__main__":
    torch.manual_seed(0)
    model = GraphClassifier(in_channels=4, hidden=8, num_classes=2).eval()
    x = torch.randn(7, 4)
    edge_index = torch.tensor([[0, 1, 1, 2, 3, 4, 5, 6], [1, 0, 2, 1, 4, 3, 6, 5]])
    batch = torch.tensor([0, 0, 0, 1, 1, 2, 2])
    with torch.no_grad():
        logits = model(x, edge_index, batch, num_graphs=3)
    print("graph logits:", tuple(logits.shape))
