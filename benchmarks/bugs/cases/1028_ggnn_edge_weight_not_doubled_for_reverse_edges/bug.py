import torch
import torch.nn as nn


class GatedGraphLayer(nn.Module):
    def __init__(self, hidden, steps=2):
        super().__init__()
        self.steps = steps
        self.msg = nn.Linear(hidden, hidden)
        self.gru = nn.GRUCell(hidden, hidden)

    def propagate(self, h, edge_index, edge_weight):
        src, dst = edge_index
        deg = torch.zeros(h.size(0)).scatter_add_(0, dst, edge_weight)
        norm = edge_weight / deg[dst].clamp(min=1e-6)
        messages = self.msg(h)[src] * norm.unsqueeze(-1)
        agg = torch.zeros_like(h).index_add_(0, dst, messages)
        return self.gru(agg, h)

    def forward(self, h, edge_index, edge_weight):
        # treat the graph as undirected: add every edge in the reverse direction
        edge_index = torch.cat([edge_index, edge_index.flip(0)], dim=1)
        for _ in range(self.steps):
            h = self.propagate(h, edge_index, edge_weight)
        return h


if __name__ == "__main__":
    torch.manual_seed(0)
    layer = GatedGraphLayer(hidden=16)
    h = torch.randn(6, 16)
    edge_index = torch.tensor([[0, 1, 2, 3, 4, 0, 2], [1, 2, 3, 4, 5, 5, 4]])
    edge_weight = torch.rand(7)
    with torch.no_grad():
        out = layer(h, edge_index, edge_weight)
    print(out.shape)
