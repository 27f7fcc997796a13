import torch
import torch.nn as nn
import torch.nn.functional as F


def global_add_pool(x, batch, size=None):
    size = int(batch.max()) + 1 if size is None else size
    return x.new_zeros(size, x.size(-1)).index_add_(0, batch, x)


class GraphRegressor(nn.Module):
    def __init__(self, cfg):
        super().__init__()
        self.node_encoder = nn.Linear(cfg["num_node_features"], cfg["hidden"])
        self.message = nn.Linear(cfg["hidden"], cfg["hidden"])
        self.readout = nn.Linear(cfg["hidden"], 1)

    def forward(self, data):
        h = torch.relu(self.node_encoder(data["x"]))
        src, dst = data["edge_index"]
        h = torch.relu(h + torch.zeros_like(h).index_add_(0, dst, self.message(h)[src]))
        graph_emb = global_add_pool(h, data["batch"])
        return self.readout(graph_emb).squeeze(-1)


def featurize(cfg, num_atoms, target):
    ring = torch.arange(num_atoms)
    edge_index = torch.stack([ring, (ring + 1) % max(num_atoms, 1)])
    return {"x": torch.randn(num_atoms, cfg["num_node_features"]), "edge_index": edge_index, "y": torch.tensor(target)}


def collate(graphs):
    xs, edges, batch, ys, offset = [], [], [], [], 0
    for i, g in enumerate(graphs):
        xs.append(g["x"])
        edges.append(g["edge_index"] + offset)
        batch.append(torch.full((g["x"].shape[0],), i, dtype=torch.long))
        ys.append(g["y"])
        offset += g["x"].shape[0]
    return {"x": torch.cat(xs), "edge_index": torch.cat(edges, dim=1), "batch": torch.cat(batch),
            "y": torch.stack(ys), "num_graphs": len(graphs)}


if __name__ == "__main__":
    torch.manual_seed(0)
    cfg = {"num_node_features": 8, "hidden": 16, "heavy_atoms": [5, 3, 4, 0], "targets": [1.2, -0.4, 0.7, 0.0]}
    model = GraphRegressor(cfg)
    data = collate([featurize(cfg, n, t) for n, t in zip(cfg["heavy_atoms"], cfg["targets"])])
    pred = model(data)
    loss = F.mse_loss(pred, data["y"])
    print("loss:", loss.item())
