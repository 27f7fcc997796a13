import math

import torch
import torch.nn as nn


class TopKPooling(nn.Module):
    def __init__(self, in_channels, ratio):
        super().__init__()
        self.ratio = ratio
        self.weight = nn.Parameter(torch.randn(in_channels))

    def forward(self, x, edge_index, batch):
        num_nodes = x.size(0)
        score = torch.tanh((x * self.weight).sum(-1) / self.weight.norm())
        num_graphs = int(batch.max()) + 1
        counts = torch.bincount(batch, minlength=num_graphs)
        k = torch.ceil(self.ratio * counts.float()).long()

        # rank nodes inside their graph: sort by (graph, -score)
        order = torch.argsort(batch.double() * 4.0 - score.double(), stable=True)
        starts = torch.cumsum(counts, 0) - counts
        rank_in_graph = torch.empty_like(order)
        rank_in_graph.scatter_(0, order, torch.arange(num_nodes) - starts[batch[order]])
        keep = rank_in_graph < k[batch]
        perm = order[keep[order]]

        x_out = x.index_select(0, perm) * score.index_select(0, perm).unsqueeze(-1)
        batch_out = batch.index_select(0, perm)

        new_id = torch.full((num_nodes,), -1, dtype=torch.long)
        new_id.scatter_(0, perm, torch.arange(perm.numel()))
        row, col = new_id[edge_index[0]], new_id[edge_index[1]]
        edge_mask = (row >= 0) & (col >= 0)
        edge_out = torch.stack([row[edge_mask], col[edge_mask]])
        return x_out, edge_out, batch_out, perm, score


def global_mean_pool(x, batch, num_graphs):
    sums = torch.zeros(num_graphs, x.size(1)).index_add_(0, batch, x)
    counts = torch.bincount(batch, minlength=num_graphs).clamp(min=1).unsqueeze(1)
    return sums / counts


if __name__ == "__main__":
    torch.manual_seed(0)
    x = torch.randn(9, 5)
    batch = torch.tensor([0, 0, 0, 0, 1, 1, 1, 1, 1])
    edge_index = torch.tensor([[0, 1, 1, 2, 3, 4, 5, 6, 7, 8, 8], [1, 0, 2, 3, 0, 5, 6, 7, 8, 4, 6]])
    pool = TopKPooling(5, ratio=0.5)
    with torch.no_grad():
        x_out, edge_out, batch_out, perm, score = pool(x, edge_index, batch)
        readout = global_mean_pool(x_out, batch_out, 2)

    kept = []
    for g in range(2):
        nodes = [n for n in range(9) if batch[n].item() == g]
        nodes.sort(key=lambda n: -score[n].item())
        kept += nodes[:math.ceil(0.5 * len(nodes))]
    assert perm.tolist() == kept
    for i, n in enumerate(kept):
        for d in range(5):
            assert abs(x_out[i, d].item() - x[n, d].item() * score[n].item()) < 1e-6
    position = {n: i for i, n in enumerate(kept)}
    expected_edges = [[position[s], position[t]] for s, t in edge_index.t().tolist() if s in position and t in position]
    assert edge_out.t().tolist() == expected_edges
    for g in range(2):
        rows = [i for i, n in enumerate(kept) if batch[n].item() == g]
        for d in range(5):
            assert abs(readout[g, d].item() - sum(x_out[i, d].item() for i in rows) / len(rows)) < 1e-6
    print("ok")
