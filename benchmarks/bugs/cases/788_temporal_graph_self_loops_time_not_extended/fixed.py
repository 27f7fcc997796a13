from dataclasses import dataclass
from typing import Optional

import torch
import torch.nn as nn

CFG = {"num_nodes": 5, "num_edges": 9, "feat_dim": 4, "time_dim": 3, "seed": 1}


@dataclass
class TemporalGraph:
    x: torch.Tensor
    edge_index: torch.Tensor
    time: torch.Tensor
    edge_weight: Optional[torch.Tensor] = None


class AddSelfLoops:
    def __init__(self, attrs=(("edge_weight", 1.0), ("time", 0.0))):
        self.attrs = attrs

    def __call__(self, g):
        loops = torch.arange(g.x.size(0)).repeat(2, 1)
        g.edge_index = torch.cat([g.edge_index, loops], dim=1)
        for attr, fill_value in self.attrs:
            value = getattr(g, attr)
            if value is not None:
                setattr(g, attr, torch.cat([value, value.new_full((loops.size(1),), fill_value)]))
        return g


class EventGraphDataset(torch.utils.data.Dataset):
    def __init__(self, cfg, transform=None):
        self.cfg, self.transform = cfg, transform

    def __len__(self):
        return 2

    def __getitem__(self, i):
        g = torch.Generator().manual_seed(self.cfg["seed"] + i)
        n, e = self.cfg["num_nodes"], self.cfg["num_edges"]
        graph = TemporalGraph(
            x=torch.randn(n, self.cfg["feat_dim"], generator=g),
            edge_index=torch.randint(0, n, (2, e), generator=g),
            time=torch.rand(e, generator=g) * 10,
            edge_weight=torch.ones(e),
        )
        return self.transform(graph) if self.transform else graph


class TimeAwareConv(nn.Module):
    def __init__(self, feat_dim, time_dim):
        super().__init__()
        self.time_enc = nn.Linear(1, time_dim)
        self.lin = nn.Linear(feat_dim + time_dim, feat_dim)

    def forward(self, g):
        src, dst = g.edge_index
        n = g.x.size(0)
        msg = g.x.index_select(0, src) * g.edge_weight.unsqueeze(1)
        agg = torch.zeros(n, g.x.size(1)).scatter_add_(0, dst.unsqueeze(1).expand_as(msg), msg)
        t_feat = torch.cos(self.time_enc(g.time.unsqueeze(1)))
        t_index = dst.unsqueeze(1).expand(-1, t_feat.size(1))
        t_agg = torch.zeros(n, t_feat.size(1)).scatter_add_(0, t_index, t_feat)
        return self.lin(torch.cat([agg, t_agg], dim=1))


def reference_forward(conv, g):
    n, d = g.x.shape
    src, dst = g.edge_index.tolist()
    t_dim = conv.time_enc.out_features
    agg = [[0.0] * d for _ in range(n)]
    t_agg = [[0.0] * t_dim for _ in range(n)]
    for k in range(len(src)):
        for c in range(d):
            agg[dst[k]][c] += float(g.x[src[k], c]) * float(g.edge_weight[k])
        t_feat = torch.cos(conv.time_enc(g.time[k].view(1, 1)))[0]
        for c in range(t_dim):
            t_agg[dst[k]][c] += float(t_feat[c])
    return conv.lin(torch.cat([torch.tensor(agg), torch.tensor(t_agg)], dim=1))


if __name__ == "__main__":
    torch.manual_seed(CFG["seed"])
    dataset = EventGraphDataset(CFG, transform=AddSelfLoops())
    conv = TimeAwareConv(CFG["feat_dim"], CFG["time_dim"])
    with torch.no_grad():
        for graph in (dataset[i] for i in range(len(dataset))):
            out = conv(graph)
            assert torch.allclose(out, reference_forward(conv, graph), atol=1e-5)
    print("ok")
