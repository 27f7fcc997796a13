import torch
import torch.nn as nn
import torch.nn.functional as F


def global_add_pool(x, batch, size=None):
    # x:     [num_nodes, F] node features
    # batch: [num_nodes]    graph id of every node (sorted)
    size = int(batch.max()) + 1 if size is None else size
    out = x.new_zeros(size, x.size(-1))  # [num_graphs, F]
    return out.index_add_(0, batch, x)


class GraphClassifier(nn.Module):
    def __init__(self, in_dim, hidden, num_classes):
        super().__init__()
        self.node_mlp = nn.Sequential(nn.Linear(in_dim, hidden), nn.ReLU(), nn.Linear(hidden, hidden))
        self.head = nn.Linear(hidden, num_classes)

    def forward(self, x, batch, num_graphs):
        h = self.node_mlp(x)           # [num_nodes, hidden]
        g = global_add_pool(h, batch, size=num_graphs)  # [num_graphs, hidden]
        return self.head(g)            # [num_graphs, num_classes]


def collate(graphs):
    xs, batch = [], []
    for gid, g in enumerate(graphs):
        xs.append(g["x"])
        batch.append(torch.full((g["x"].size(0),), gid, dtype=torch.long))
    y = torch.tensor([g["y"] for g in graphs])  # [num_graphs]
    return torch.cat(xs), torch.cat(batch), y, len(graphs)


if __name__ == "__main__":
    torch.manual_seed(0)
    in_dim = 6
    graphs = [
        {"x": torch.randn(5, in_dim), "y": 1},
        {"x": torch.randn(3, in_dim), "y": 0},
        {"x": torch.randn(0, in_dim), "y": 2},  # every atom filtered out by the featurizer
    ]
    x, batch, y, num_graphs = collate(graphs)
    model = GraphClassifier(in_dim, 16, num_classes=3)
    logits = model(x, batch, num_graphs)
    assert logits.shape == (3, 3)

    h = model.node_mlp(x)
    pooled = global_add_pool(h, batch, size=num_graphs)
    ref = torch.zeros(num_graphs, h.size(1))
    for i in range(h.size(0)):
        ref[batch[i]] += h[i]
    assert torch.allclose(pooled, ref, atol=1e-5)
    assert torch.all(pooled[2] == 0)
    loss = F.cross_entropy(logits, y)
    assert torch.isfinite(loss)
    print("ok")
