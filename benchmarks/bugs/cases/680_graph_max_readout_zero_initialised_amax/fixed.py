import torch
import torch.nn as nn


class GraphMaxReadout(nn.Module):
    def __init__(self, in_dim, hidden, out_dim):
        super().__init__()
        self.node_mlp = nn.Sequential(nn.Linear(in_dim, hidden), nn.Tanh(), nn.Linear(hidden, hidden))
        self.head = nn.Linear(hidden, out_dim)

    def forward(self, x, batch, num_graphs):
        h = self.node_mlp(x)
        index = batch.unsqueeze(1).expand_as(h)
        pooled = h.new_zeros(num_graphs, h.size(1))
        pooled = pooled.scatter_reduce(0, index, h, reduce="amax", include_self=False)
        return self.head(pooled), pooled


def make_batch(sizes, in_dim, seed=0):
    g = torch.Generator().manual_seed(seed)
    x = torch.randn(sum(sizes), in_dim, generator=g)
    batch = torch.cat([torch.full((n,), i, dtype=torch.long) for i, n in enumerate(sizes)])
    return x, batch


if __name__ == "__main__":
    torch.manual_seed(0)
    model = GraphMaxReadout(in_dim=5, hidden=8, out_dim=2)
    x, batch = make_batch([3, 5, 2, 4], in_dim=5)
    out, pooled = model(x, batch, num_graphs=4)
    h = model.node_mlp(x)
    for gi in range(4):
        rows = [h[i] for i in range(len(batch)) if batch[i].item() == gi]
        ref = [max(r[j].item() for r in rows) for j in range(h.size(1))]
        assert torch.allclose(pooled[gi], torch.tensor(ref), atol=1e-6)
    print("ok")
