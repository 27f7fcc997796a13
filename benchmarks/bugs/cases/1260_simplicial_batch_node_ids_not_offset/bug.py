import torch
import torch.nn as nn


def collate_complexes(samples):
    xs, edge_nodes, tri_nodes, batch = [], [], [], []
    for gid, s in enumerate(samples):
        xs.append(s["x"])
        edge_nodes.append(s["edge_nodes"])
        tri_nodes.append(s["tri_nodes"])
        batch.append(torch.full((s["edge_nodes"].size(0),), gid))
    return {
        "x": torch.cat(xs),
        "edge_nodes": torch.cat(edge_nodes),
        "tri_nodes": torch.cat(tri_nodes),
        "edge_batch": torch.cat(batch),
        "num_graphs": len(samples),
    }


def lift_cell_features(x, cell_nodes):
    k = cell_nodes.size(1)
    picked = x.index_select(0, cell_nodes.reshape(-1))
    return picked.view(-1, k, x.size(1)).mean(dim=1)


class EdgeReadout(nn.Module):
    def __init__(self, in_dim, out_dim):
        super().__init__()
        self.lin = nn.Linear(in_dim, out_dim)

    def forward(self, data):
        edge_feat = lift_cell_features(data["x"], data["edge_nodes"])
        tri_feat = lift_cell_features(data["x"], data["tri_nodes"])
        h = self.lin(edge_feat)
        out = torch.zeros(data["num_graphs"], h.size(1)).index_add_(0, data["edge_batch"], h)
        return out, tri_feat


def make_sample(num_nodes, seed, cfg):
    g = torch.Generator().manual_seed(seed)
    x = torch.randn(num_nodes, cfg["feat"], generator=g)
    edges = torch.tensor([[i, (i + 1) % num_nodes] for i in range(num_nodes)])
    tris = torch.tensor([[0, 1, 2], [1, 2, 3]])
    return {"x": x, "edge_nodes": edges, "tri_nodes": tris}


if __name__ == "__main__":
    cfg = {"feat": 3, "out": 2}
    torch.manual_seed(0)
    samples = [make_sample(n, s, cfg) for s, n in enumerate([4, 5, 6])]
    data = collate_complexes(samples)
    model = EdgeReadout(cfg["feat"], cfg["out"])
    with torch.no_grad():
        _, tri_feat = model(data)
        second = samples[1]
        own = second["x"][second["tri_nodes"]].mean(dim=1)
    print("triangle features of graph 1 (batched):", tri_feat[2:4])
    print("triangle features of graph 1 (alone)  :", own)
