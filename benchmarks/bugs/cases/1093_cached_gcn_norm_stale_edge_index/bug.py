import torch
import torch.nn as nn


class RingGraphs(torch.utils.data.Dataset):
    def __init__(self, sizes, in_dim):
        self.sizes, self.in_dim = sizes, in_dim

    def __len__(self):
        return len(self.sizes)

    def __getitem__(self, i):
        n = self.sizes[i]
        src = torch.arange(n)
        edge_index = torch.stack([src, (src + 1) % n])    # [2, E] ring
        x = torch.randn(n, self.in_dim)                   # [N, F]
        return x, edge_index


def collate_graphs(items):
    xs, edges, offset = [], [], 0
    for x, ei in items:
        xs.append(x)
        edges.append(ei + offset)
        offset += x.size(0)
    return torch.cat(xs), torch.cat(edges, dim=1)         # [sum N, F], [2, sum E]


class GCNLayer(nn.Module):
    def __init__(self, in_dim, out_dim, cached=True):
        super().__init__()
        self.lin = nn.Linear(in_dim, out_dim)
        self.cached = cached
        self._cache = None

    def normalize(self, edge_index, num_nodes):
        loops = torch.arange(num_nodes)
        row = torch.cat([edge_index[0], loops])            # [E + N]
        col = torch.cat([edge_index[1], loops])
        deg = torch.zeros(num_nodes).index_add_(0, row, torch.ones(row.numel()))
        norm = deg[row].rsqrt() * deg[col].rsqrt()        # [E + N]
        return row, col, norm

    def forward(self, x, edge_index):
        # x: [N, F], edge_index: [2, E]
        if self._cache is None or not self.cached:
            self._cache = self.normalize(edge_index, x.size(0))
        row, col, norm = self._cache
        h = self.lin(x)                                   # [N, H]
        msg = h.index_select(0, col) * norm.unsqueeze(-1)  # [E + N, H]
        return torch.zeros_like(h).index_add_(0, row, msg)


if __name__ == "__main__":
    torch.manual_seed(0)
    data = RingGraphs(sizes=[7, 5, 6, 3, 4], in_dim=8)
    loader = torch.utils.data.DataLoader(data, batch_size=3, collate_fn=collate_graphs)
    layer = GCNLayer(8, 16)
    for step, (x, edge_index) in enumerate(loader):
        out = layer(x, edge_index)
        print("step", step, "nodes", x.size(0), "out", tuple(out.shape))
