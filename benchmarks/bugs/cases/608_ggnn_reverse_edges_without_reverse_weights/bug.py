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
            dst = torch.cat([dst, src])
        for _ in range(self.steps):
            m = self.msg(h)[edge_index[0]] * edge_weight.unsqueeze(-1)
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
    out = layer(torch.randn(len(tokens), 8), ei, ew)
    print(out.shape)
