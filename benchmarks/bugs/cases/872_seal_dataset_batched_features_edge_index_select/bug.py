import torch
from torch import nn


class GraphDataset:
    def __init__(self, graphs, num_labels):
        self.graphs = graphs
        self.num_labels = num_labels

    def __len__(self):
        return len(self.graphs)

    def __getitem__(self, i):
        g = self.graphs[i]
        labels = torch.tensor(g["labels"])
        features = torch.nn.functional.one_hot(labels, self.num_labels).float()
        edges = torch.tensor(g["edges"]).t().contiguous()
        return {"features": features.unsqueeze(0), "edges": edges, "target": g["target"]}


class MeanGraphConv(nn.Module):
    def __init__(self, in_dim, out_dim):
        super().__init__()
        self.lin = nn.Linear(in_dim, out_dim)

    def forward(self, x, edge_index):
        src, dst = edge_index[0], edge_index[1]
        messages = x.index_select(0, src)
        agg = torch.zeros(x.size(0), messages.size(-1)).index_add_(0, dst, messages)
        deg = torch.zeros(x.size(0)).index_add_(0, dst, torch.ones_like(dst, dtype=torch.float))
        return torch.relu(self.lin(agg / deg.clamp(min=1).unsqueeze(-1)))


class GraphLevelModel(nn.Module):
    def __init__(self, cfg):
        super().__init__()
        self.conv_1 = MeanGraphConv(cfg["num_labels"], cfg["hidden"])
        self.head = nn.Linear(cfg["hidden"], cfg["classes"])

    def forward(self, batch):
        h = self.conv_1(batch["features"], batch["edges"])
        return self.head(h.mean(0))


def make_graphs():
    return [
        {"labels": [0, 2, 1, 1], "edges": [[0, 1], [1, 0], [1, 2], [2, 1], [2, 3], [3, 2]], "target": 1},
        {"labels": [1, 0, 2], "edges": [[0, 1], [1, 0], [1, 2], [2, 1]], "target": 0},
    ]


if __name__ == "__main__":
    torch.manual_seed(0)
    cfg = {"num_labels": 3, "hidden": 8, "classes": 2}
    data = GraphDataset(make_graphs(), cfg["num_labels"])
    model = GraphLevelModel(cfg)
    for i in range(len(data)):
        print(i, model(data[i]).detach())
