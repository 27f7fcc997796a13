import torch
import torch.nn as nn


def scatter_add(src, index, dim_size):
    out = src.new_zeros(dim_size, src.size(1))
    return out.scatter_add_(0, index.view(-1, 1).expand_as(src), src)


def global_add_pool(x, batch, size=None):
    size = batch[-1].item() + 1 if size is None else size
    return scatter_add(x, batch, size)


def global_mean_pool(x, batch, size=None):
    size = batch[-1].item() + 1 if size is None else size
    total = scatter_add(x, batch, size)
    count = scatter_add(torch.ones_like(x[:, :1]), batch, size)
    return total / count.clamp(min=1)


class GraphConv(nn.Module):
    def __init__(self, in_channels, out_channels):
        super().__init__()
        self.lin_rel = nn.Linear(in_channels, out_channels)
        self.lin_root = nn.Linear(in_channels, out_channels, bias=False)

    def forward(self, x, edge_index):
        row, col = edge_index
        agg = torch.zeros_like(x).index_add_(0, col, x[row])
        return self.lin_rel(agg) + self.lin_root(x)


class TopScorePooling(nn.Module):
    def __init__(self, in_channels, ratio):
        super().__init__()
        self.score = nn.Linear(in_channels, 1)
        self.ratio = ratio

    def forward(self, x, batch):
        score = torch.tanh(self.score(x)).view(-1)
        num_keep = max(1, int(self.ratio * x.size(0)))
        perm = score.argsort(descending=True)[:num_keep]
        return x[perm] * score[perm].view(-1, 1), batch[perm]


class GraphClassifier(nn.Module):
    def __init__(self, in_channels, hidden, num_classes):
        super().__init__()
        self.conv = GraphConv(in_channels, hidden)
        self.pool = TopScorePooling(hidden, ratio=0.5)
        self.lin = nn.Linear(2 * hidden, num_classes)

    def forward(self, x, edge_index, batch):
        x = torch.relu(self.conv(x, edge_index))
        x, batch = self.pool(x, batch)
        readout = torch.cat([global_mean_pool(x, batch), global_add_pool(x, batch)], dim=1)
        return self.lin(readout)


def ring_graph(num_nodes, offset):
    src = torch.arange(num_nodes) + offset
    dst = (torch.arange(num_nodes) + 1) % num_nodes + offset
    return torch.stack([torch.cat([src, dst]), torch.cat([dst, src])])


if __name__ == "__main__":
    torch.manual_seed(1)
    sizes = [5, 4, 6]
    offsets = [0, 5, 9]
    edge_index = torch.cat([ring_graph(n, o) for n, o in zip(sizes, offsets)], dim=1)
    batch = torch.repeat_interleave(torch.arange(len(sizes)), torch.tensor(sizes))
    x = torch.randn(sum(sizes), 7)
    model = GraphClassifier(7, 16, 3).eval()
    with torch.no_grad():
        logits = model(x, edge_index, batch)
    print("logits per graph:", tuple(logits.shape))
