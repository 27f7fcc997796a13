import torch
import torch.nn as nn


def collate_graphs(samples):
    xs, edges, batch, labels = [], [], [], []
    offset = 0
    for gid, (x, edge_index, y) in enumerate(samples):
        xs.append(x)
        edges.append(edge_index + offset)
        batch.append(torch.full((x.size(0),), gid, dtype=torch.long))
        labels.append(y)
        offset += x.size(0)
    return torch.cat(xs), torch.cat(edges, dim=1), torch.cat(batch), torch.stack(labels)


def global_add_pool(x, batch, num_graphs):
    out = x.new_zeros(num_graphs, x.size(1))
    return out.scatter_add_(0, batch.unsqueeze(-1).expand_as(x), x)


class GINEncoder(nn.Module):
    def __init__(self, in_dim, hidden, layers):
        super().__init__()
        dims = [in_dim] + [hidden] * layers
        self.mlps = nn.ModuleList(
            nn.Sequential(nn.Linear(a, b), nn.ReLU(), nn.Linear(b, b))
            for a, b in zip(dims[:-1], dims[1:])
        )

    def forward(self, x, edge_index, batch, num_graphs):
        src, dst = edge_index
        pooled = []
        for mlp in self.mlps:
            agg = torch.zeros_like(x).index_add_(0, dst, x[src])
            x = mlp(x + agg)
            pooled.append(global_add_pool(x, batch, num_graphs))
        return torch.cat(pooled, dim=-1)


def make_graph(n, feat_dim, gen):
    x = torch.randn(n, feat_dim, generator=gen)
    ring = torch.arange(n)
    edge_index = torch.stack([ring, (ring + 1) % n])
    return x, edge_index, torch.tensor(n % 2)


if __name__ == "__main__":
    gen = torch.Generator().manual_seed(0)
    cfg = {"feat_dim": 9, "hidden": 16, "layers": 3}
    dataset = [make_graph(n, cfg["feat_dim"], gen) for n in (5, 7, 4)]
    x, edge_index, batch, y = collate_graphs(dataset)
    model = GINEncoder(cfg["feat_dim"], cfg["hidden"], cfg["layers"])
    emb = model(x, edge_index, batch, num_graphs=len(dataset))
    print("graph embeddings:", tuple(emb.shape))

    # reference: loop readout, graph by graph
    h = torch.randn(x.size(0), 4)
    pooled = global_add_pool(h, batch, len(dataset))
    start = 0
    for g, (xg, _, _) in enumerate(dataset):
        n = xg.size(0)
        ref = torch.zeros(4)
        for i in range(start, start + n):
            ref += h[i]
        assert torch.allclose(pooled[g], ref, atol=1e-5)
        start += n
    assert emb.shape == (3, cfg["hidden"] * cfg["layers"])
    print("ok")
