import torch
import torch.nn as nn


def drop_nodes(x, batch, keep_prob, generator):
    keep = torch.rand(x.size(0), generator=generator) < keep_prob
    return x[keep], batch[keep]


def global_max_pool(x, batch, num_graphs):
    out = x.new_full((num_graphs, x.size(1)), torch.finfo(x.dtype).min)
    out = out.scatter_reduce(0, batch.unsqueeze(1).expand_as(x), x, reduce="amax", include_self=False)
    counts = torch.bincount(batch, minlength=num_graphs)
    return out.masked_fill((counts == 0).unsqueeze(1), 0.0)


class GraphClassifier(nn.Module):
    def __init__(self, cfg):
        super().__init__()
        self.encode = nn.Linear(cfg["in_dim"], cfg["hidden"])
        self.head = nn.Linear(cfg["hidden"], cfg["classes"])

    def forward(self, x, batch, num_graphs):
        h = self.encode(x)
        return self.head(global_max_pool(h, batch, num_graphs))


def augmented_forward(model, graphs, cfg, seed):
    x = torch.cat([g["x"] for g in graphs])
    batch = torch.cat([torch.full((g["x"].size(0),), i) for i, g in enumerate(graphs)])
    gen = torch.Generator().manual_seed(seed)
    x, batch = drop_nodes(x, batch, cfg["keep_prob"], gen)
    return model(x, batch, len(graphs))


if __name__ == "__main__":
    torch.manual_seed(0)
    cfg = {"in_dim": 4, "hidden": 8, "classes": 3, "keep_prob": 0.5}
    graphs = [{"x": torch.randn(n, cfg["in_dim"])} for n in (5, 1, 4)]
    model = GraphClassifier(cfg)
    out = augmented_forward(model, graphs, cfg, seed=3)
    x = torch.cat([g["x"] for g in graphs])
    batch = torch.cat([torch.full((g["x"].size(0),), i) for i, g in enumerate(graphs)])
    x, batch = drop_nodes(x, batch, cfg["keep_prob"], torch.Generator().manual_seed(3))
    with torch.no_grad():
        h = model.encode(x)
        for g in range(len(graphs)):
            rows = [h[i] for i in range(h.size(0)) if batch[i].item() == g]
            pooled = torch.stack(rows).max(0).values if rows else torch.zeros(cfg["hidden"])
            assert torch.allclose(out[g], model.head(pooled), atol=1e-5)
    print("ok")
