import torch
import torch.nn as nn


def collate_complexes(samples):
    xs, edge_nodes, tri_nodes, batch = [], [], [], []
    offset = 0
    for gid, s in enumerate(samples):
        xs.append(s["x"])
        edge_nodes.append(s["edge_nodes"] + offset)
        tri_nodes.append(s["tri_nodes"] + offset)
        offset += s["x"].size(0)
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
        out, tri_feat = model(data)
        row = 0
        for gid, s in enumerate(samples):
            for t in s["tri_nodes"].tolist():
                for f in range(cfg["feat"]):
                    ref = sum(s["x"][v, f].item() for v in t) / 3
                    assert abs(tri_feat[row, f].item() - ref) < 1e-5
                row += 1
            pooled = [0.0] * cfg["out"]
            for e in s["edge_nodes"].tolist():
                feat = [(s["x"][e[0], f].item() + s["x"][e[1], f].item()) / 2 for f in range(cfg["feat"])]
                for o in range(cfg["out"]):
                    pooled[o] += sum(model.lin.weight[o, f].item() * feat[f] for f in range(cfg["feat"])) + model.lin.bias[o].item()
            for o in range(cfg["out"]):
                assert abs(out[gid, o].item() - pooled[o]) < 1e-4
    print("ok")
