from dataclasses import dataclass

import torch
import torch.nn as nn


@dataclass
class GNNConfig:
    in_dim: int = 6
    hidden: int = 16
    num_layers: int = 3
    num_classes: int = 2


class SumConv(nn.Module):
    def __init__(self, d_in, d_out):
        super().__init__()
        self.lin = nn.Linear(d_in, d_out)

    def forward(self, x, edge_index):
        agg = x.clone()
        agg.index_add_(0, edge_index[1], x[edge_index[0]])
        return torch.relu(self.lin(agg))


class JKGraphClassifier(nn.Module):
    def __init__(self, cfg):
        super().__init__()
        self.cfg = cfg
        dims = [cfg.in_dim] + [cfg.hidden] * cfg.num_layers
        self.convs = nn.ModuleList(SumConv(a, b) for a, b in zip(dims[:-1], dims[1:]))
        self.head = nn.Linear(cfg.hidden * cfg.num_layers, cfg.num_classes)

    def readout(self, h, batch, num_graphs):
        pooled = h.new_zeros(num_graphs, self.cfg.hidden * self.cfg.num_layers)
        pooled.index_add_(0, batch, h)
        return pooled

    def forward(self, x, edge_index, batch, num_graphs):
        layer_outputs = []
        for conv in self.convs:
            x = conv(x, edge_index)
            layer_outputs.append(x)
        return self.head(self.readout(torch.cat(layer_outputs, dim=-1), batch, num_graphs))


def collate(graphs):
    xs, edges, batch, offset = [], [], [], 0
    for g, (x, e) in enumerate(graphs):
        xs.append(x)
        edges.append(e + offset)
        batch.append(torch.full((x.size(0),), g, dtype=torch.long))
        offset += x.size(0)
    return torch.cat(xs), torch.cat(edges, dim=1), torch.cat(batch), len(graphs)


def random_graph(cfg, n, gen):
    src = torch.randint(0, n, (2 * n,), generator=gen)
    dst = torch.randint(0, n, (2 * n,), generator=gen)
    return torch.randn(n, cfg.in_dim, generator=gen), torch.stack([src, dst])


if __name__ == "__main__":
    cfg = GNNConfig()
    gen = torch.Generator().manual_seed(0)
    torch.manual_seed(0)
    x, edge_index, batch, num_graphs = collate([random_graph(cfg, n, gen) for n in (5, 8, 3)])
    model = JKGraphClassifier(cfg)
    with torch.no_grad():
        logits = model(x, edge_index, batch, num_graphs)
        h, outs = x, []
        for conv in model.convs:
            h = conv(h, edge_index)
            outs.append(h)
        jk = torch.cat(outs, dim=-1)
        ref = torch.zeros(num_graphs, jk.size(1))
        for node in range(jk.size(0)):
            ref[batch[node]] += jk[node]
        assert torch.allclose(logits, model.head(ref), atol=1e-5)
    print("ok")
