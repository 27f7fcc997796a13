import torch
import torch.nn as nn


def load_pair(record, num_labels):
    """Turn one JSON record of a graph pair into tensors.

    Args:
        record: dict with "graph_1"/"graph_2" (lists of [u, v] edges), "labels_1"/"labels_2"
            (one node label per node) and "ged" (graph edit distance).
        num_labels: size L of the node-label vocabulary.

    Returns:
        (edges_1, feats_1, edges_2, feats_2, target): edges are (2, 2E) LongTensors
        (both directions), feats are (N, L) one-hot node features, target is a scalar.
    """
    out = []
    for k in ("1", "2"):
        e = torch.tensor(record["graph_" + k], dtype=torch.long).t()
        e = torch.cat([e, e.flip(0)], dim=1)
        labels = torch.tensor(record["labels_" + k], dtype=torch.long)
        feats = torch.nn.functional.one_hot(labels, num_labels).float()
        out += [e, feats]
    return (*out, torch.tensor(float(record["ged"])))


class GraphConv(nn.Module):
    def __init__(self, d_in, d_out):
        super().__init__()
        self.lin = nn.Linear(d_in, d_out)

    def forward(self, x, edge_index):
        """x: (N, d_in) node features; edge_index: (2, E). Returns (N, d_out)."""
        src, dst = edge_index
        msgs = x.index_select(0, src)
        agg = torch.zeros_like(x).index_add_(0, dst, msgs)
        return torch.relu(self.lin(x + agg))


class PairScorer(nn.Module):
    def __init__(self, num_labels, hidden=16):
        super().__init__()
        self.conv = GraphConv(num_labels, hidden)
        self.out = nn.Linear(2 * hidden, 1)

    def forward(self, e1, f1, e2, f2):
        g1 = self.conv(f1, e1).mean(0)
        g2 = self.conv(f2, e2).mean(0)
        return torch.sigmoid(self.out(torch.cat([g1, g2]))).squeeze()


if __name__ == "__main__":
    torch.manual_seed(0)
    record = {"graph_1": [[0, 1], [1, 2], [2, 3], [3, 4]],
              "graph_2": [[0, 1], [1, 2], [1, 3], [3, 4], [2, 4]],
              "labels_1": [2, 2, 2, 1],
              "labels_2": [2, 3, 2, 3, 5],
              "ged": 1}
    model = PairScorer(num_labels=6)
    *inputs, target = load_pair(record, num_labels=6)
    print("predicted similarity:", model(*inputs).item(), "target ged:", target.item())
