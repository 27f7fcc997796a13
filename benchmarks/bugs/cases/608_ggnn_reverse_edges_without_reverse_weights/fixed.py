import torch
import torch.nn as nn


class GGNNLayer(nn.Module):
    def __init__(self, hidden, steps=2, bidirectional=True):
        super().__init__()
        self.msg = nn.Linear(hidden, hidden)
        self.gru = nn.GRUCell(hidden, hidden)
        self.steps = steps
        self.bidirectional = bidirectional

    def forward(self, h, edge_index, edge_weight):
        src, dst = edge_index
        if self.bidirectional:
            src, dst = torch.cat([src, dst]), torch.cat([dst, src])
            edge_weight = torch.cat([edge_weight, edge_weight])
        for _ in range(self.steps):
            m = self.msg(h)[src] * edge_weight.unsqueeze(-1)
            agg = torch.zeros_like(h).index_add_(0, dst, m)
            h = self.gru(agg, h)
        return h


def build_graph(tokens):
    # dependency-like chain with a few skip links over the token sequence
    n = len(tokens)
    pairs = [(i, i + 1) for i in range(n - 1)] + [(0, n - 1), (1, 3)]
    edge_index = torch.tensor(pairs).t()
    edge_weight = torch.linspace(0.5, 1.0, len(pairs))
    return edge_index, edge_weight


if __name__ == "__main__":
    torch.manual_seed(0)
    tokens = "where is the nearest station".split()
    ei, ew = build_graph(tokens)
    layer = GGNNLayer(8)
    h0 = torch.randn(len(tokens), 8)
    out = layer(h0, ei, ew)
    edges = [(int(a), int(b), float(c)) for a, b, c in zip(ei[0], ei[1], ew)]
    edges = edges + [(b, a, c) for a, b, c in edges]
    h = h0
    with torch.no_grad():
        for _ in range(layer.steps):
            mh = layer.msg(h)
            agg = torch.zeros_like(h)
            for a, b, c in edges:
                agg[b] += mh[a] * c
            h = layer.gru(agg, h)
    assert torch.allclose(out, h, atol=1e-5)
    print("ok")
