import torch
import torch.nn as nn


def make_graphs():
    torch.manual_seed(0)
    graphs = []
    for n, edges in [(4, [(0, 1), (1, 2), (2, 3)]), (3, [(0, 1), (1, 2)]), (5, [(0, 1), (3, 4), (4, 5)])]:
        ei = torch.tensor(edges).t()
        graphs.append({"x": torch.randn(n, 6), "edge_index": ei, "num_nodes": int(ei.max()) + 1})
    return graphs


def collate(graphs):
    x = torch.cat([g["x"] for g in graphs], dim=0)  # (N, F)
    sizes = torch.tensor([g["x"].shape[0] for g in graphs])  # (G,)
    batch = torch.repeat_interleave(torch.arange(len(graphs)), sizes)  # (N,) graph id per node
    return x, batch, len(graphs)


def global_max_pool(h, batch, num_graphs):
    # h: (N, D) node states, batch: (N,) graph ids -> (G, D)
    out = torch.zeros(num_graphs, h.shape[1])
    index = batch.unsqueeze(1).expand(-1, h.shape[1])  # (N, D)
    return out.scatter_reduce(0, index, h, reduce="amax", include_self=False)


class GINReadout(nn.Module):
    def __init__(self, in_dim=6, hidden=8, classes=2):
        super().__init__()
        self.mlp = nn.Sequential(nn.Linear(in_dim, hidden), nn.ReLU(), nn.Linear(hidden, hidden))
        self.head = nn.Linear(hidden, classes)

    def forward(self, x, batch, num_graphs):
        h = self.mlp(x)  # (N, hidden)
        return self.head(global_max_pool(h, batch, num_graphs)), h


if __name__ == "__main__":
    x, batch, g = collate(make_graphs())
    model = GINReadout()
    logits, h = model(x, batch, g)
    h = h.detach()
    pooled = global_max_pool(h, batch, g)
    for gi in range(g):
        for d in range(h.shape[1]):
            vals = [float(h[n, d]) for n in range(h.shape[0]) if int(batch[n]) == gi]
            assert abs(max(vals) - float(pooled[gi, d])) < 1e-6
    print("ok")
