import torch
import torch.nn as nn

CONFIG = {"num_nodes": 6, "in_dim": 4, "hidden": 8, "seed": 0}


def load_interactions(cfg):
    g = torch.Generator().manual_seed(cfg["seed"])
    n = cfg["num_nodes"]
    pairs = [(0, 1), (1, 2), (2, 0), (3, 4), (4, 5), (5, 3), (1, 4), (0, 5)]
    weights = torch.rand(len(pairs), generator=g)
    table = torch.cat([torch.tensor(pairs, dtype=torch.float32), weights[:, None]], dim=1)
    feats = torch.randn(n, cfg["in_dim"], generator=g)
    return feats, table


def split_edge_table(table):
    src, dst, w = table[:, 0], table[:, 1], table[:, 2]
    return src, dst, w


class WeightedGraphConv(nn.Module):
    def __init__(self, in_dim, out_dim):
        super().__init__()
        self.lin = nn.Linear(in_dim, out_dim)

    def forward(self, h, src, dst, w):
        msg = self.lin(h).index_select(0, src) * w[:, None]
        out = torch.zeros(h.shape[0], msg.shape[1], dtype=msg.dtype)
        out.index_add_(0, dst, msg)
        return torch.relu(out)


def run(cfg):
    torch.manual_seed(cfg["seed"])
    feats, table = load_interactions(cfg)
    src, dst, w = split_edge_table(table)
    layer = WeightedGraphConv(cfg["in_dim"], cfg["hidden"])
    return layer(feats, src, dst, w), (layer, feats, table)


if __name__ == "__main__":
    out, _ = run(CONFIG)
    print("node states", tuple(out.shape))
