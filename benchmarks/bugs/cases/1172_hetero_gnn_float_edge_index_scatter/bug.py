import numpy as np
import torch
from torch import nn

CONFIG = {"num_domains": 7, "num_ips": 5, "hidden": 8, "relation": ("domain", "resolves", "ip")}


def load_edges(rows):
    """Parse (src, dst) pairs exported from the passive-DNS table."""
    table = np.asarray(rows, dtype=np.float64)
    return torch.from_numpy(table).t()


class RelationConv(nn.Module):
    def __init__(self, hidden):
        super().__init__()
        self.msg = nn.Linear(hidden, hidden)
        self.root = nn.Linear(hidden, hidden)

    def forward(self, x_src, x_dst, edge_index):
        src, dst = edge_index
        messages = self.msg(x_src[src.long()])
        agg = torch.zeros_like(x_dst)
        agg.scatter_add_(0, dst.unsqueeze(-1).expand_as(messages), messages)
        deg = torch.zeros(x_dst.size(0)).index_add_(0, dst.long(), torch.ones(dst.numel()))
        return self.root(x_dst) + agg / deg.clamp(min=1).unsqueeze(-1)


class HeteroGNN(nn.Module):
    def __init__(self, cfg):
        super().__init__()
        self.emb = nn.ModuleDict({
            "domain": nn.Embedding(cfg["num_domains"], cfg["hidden"]),
            "ip": nn.Embedding(cfg["num_ips"], cfg["hidden"]),
        })
        self.conv = RelationConv(cfg["hidden"])
        self.cfg = cfg

    def forward(self, edge_index_dict):
        x = {k: e.weight for k, e in self.emb.items()}
        rel = self.cfg["relation"]
        return self.conv(x[rel[0]], x[rel[2]], edge_index_dict[rel])


if __name__ == "__main__":
    torch.manual_seed(0)
    rows = [[0, 1], [1, 1], [2, 0], [3, 4], [4, 4], [5, 2], [6, 1]]
    edges = {CONFIG["relation"]: load_edges(rows)}
    model = HeteroGNN(CONFIG)
    out = model(edges)
    print("ip embeddings:", out.shape, out.sum().item())
