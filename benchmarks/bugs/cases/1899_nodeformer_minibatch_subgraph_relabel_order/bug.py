import torch
import torch.nn as nn


def subgraph(subset, edge_index, num_nodes, relabel_nodes=False):
    node_mask = torch.zeros(num_nodes, dtype=torch.bool)
    node_mask[subset] = True
    edge_mask = node_mask[edge_index[0]] & node_mask[edge_index[1]]
    edge_index = edge_index[:, edge_mask]
    if relabel_nodes:
        node_idx = torch.full((num_nodes,), -1, dtype=torch.long)
        node_idx[node_mask] = torch.arange(int(node_mask.sum()))
        edge_index = node_idx[edge_index]
    return edge_index, edge_mask


class MeanConv(nn.Module):
    def __init__(self, in_channels, out_channels):
        super().__init__()
        self.lin = nn.Linear(in_channels, out_channels)

    def forward(self, x, edge_index):
        src, dst = edge_index
        msg = x.index_select(0, src)
        out = torch.zeros_like(x).index_add_(0, dst, msg)
        deg = torch.zeros(x.size(0)).index_add_(0, dst, torch.ones(dst.numel()))
        out = out / deg.clamp(min=1).unsqueeze(-1)
        return self.lin(x + out)


def train_epoch_outputs(model, x, adjs, train_idx, batch_size, idx):
    n = x.size(0)
    num_batch = train_idx.size(0) // batch_size
    outputs = {}
    for i in range(num_batch):
        idx_i = train_idx[idx[i * batch_size:(i + 1) * batch_size]]
        x_i = x[idx_i]
        edge_index_i, _ = subgraph(idx_i, adjs[0], num_nodes=n, relabel_nodes=True)
        out_i = model(x_i, edge_index_i)
        for node, row in zip(idx_i.tolist(), out_i):
            outputs[node] = row
    return outputs


def reference(model, x, edge_index, batch_nodes):
    batch = set(batch_nodes)
    res = {}
    for v in batch_nodes:
        nbrs = [int(s) for s, d in edge_index.t().tolist() if d == v and s in batch]
        agg = sum((x[s] for s in nbrs), torch.zeros(x.size(1))) / max(len(nbrs), 1)
        res[v] = model.lin(x[v] + agg)
    return res


if __name__ == "__main__":
    torch.manual_seed(0)
    n = 12
    x = torch.randn(n, 4)
    edges = [(i, (i + 1) % n) for i in range(n)] + [(i, (i + 5) % n) for i in range(n)]
    edge_index = torch.tensor(edges).t()
    edge_index = torch.cat([edge_index, edge_index.flip(0)], dim=1)
    adjs = [edge_index]
    train_idx = torch.arange(n)
    idx = torch.randperm(train_idx.size(0))
    model = MeanConv(4, 3)
    with torch.no_grad():
        outs = train_epoch_outputs(model, x, adjs, train_idx, 6, idx)
        worst = 0.0
        for b in range(2):
            nodes = train_idx[idx[b * 6:(b + 1) * 6]].tolist()
            ref = reference(model, x, edge_index, nodes)
            for v in nodes:
                worst = max(worst, (outs[v] - ref[v]).abs().max().item())
    print("max deviation from per-node neighbourhood mean:", worst)
