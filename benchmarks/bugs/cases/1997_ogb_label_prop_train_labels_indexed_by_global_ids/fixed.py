import argparse

import torch
import torch.nn.functional as F


def gcn_norm(edge_index, num_nodes):
    row, col = edge_index
    deg = torch.zeros(num_nodes).index_add_(0, row, torch.ones(row.numel()))
    deg_inv_sqrt = deg.pow(-0.5)
    deg_inv_sqrt[deg_inv_sqrt == float('inf')] = 0
    edge_weight = deg_inv_sqrt[row] * deg_inv_sqrt[col]
    return edge_index, edge_weight


class LabelPropagation(torch.nn.Module):
    def __init__(self, num_layers, alpha):
        super().__init__()
        self.num_layers = num_layers
        self.alpha = alpha

    def propagate(self, edge_index, x, edge_weight):
        row, col = edge_index
        msg = x[col] * edge_weight.view(-1, 1)
        return torch.zeros_like(x).index_add_(0, row, msg)

    @torch.no_grad()
    def forward(self, y, adj_t, mask=None, post_step=lambda y: y.clamp_(0., 1.)):
        edge_index, edge_weight = adj_t
        if y.dtype == torch.long:
            y = F.one_hot(y.view(-1)).to(torch.float)

        out = y
        if mask is not None:
            out = torch.zeros_like(y)
            out[mask] = y[mask]

        res = (1 - self.alpha) * out
        for _ in range(self.num_layers):
            out = self.propagate(edge_index, x=out, edge_weight=edge_weight)
            out.mul_(self.alpha).add_(res)
            out = post_step(out)
        return out


class PaperCitationDataset:
    def __init__(self, num_papers, num_classes, seed=0):
        g = torch.Generator().manual_seed(seed)
        self.num_papers = num_papers
        self.num_classes = num_classes
        self.paper_label = torch.randint(0, num_classes, (num_papers,), generator=g)
        src = torch.randint(0, num_papers, (4 * num_papers,), generator=g)
        dst = torch.randint(0, num_papers, (4 * num_papers,), generator=g)
        keep = src != dst
        self._edge_index = torch.stack([src[keep], dst[keep]])
        perm = torch.randperm(num_papers, generator=g)
        n_train, n_valid = num_papers // 2, num_papers // 4
        self._split = {'train': perm[:n_train].sort().values,
                       'valid': perm[n_train:n_train + n_valid].sort().values,
                       'test': perm[n_train + n_valid:].sort().values}

    def edge_index(self, *args):
        return self._edge_index

    def get_idx_split(self, split):
        return self._split[split]


def accuracy(y_true, y_pred):
    return (y_true == y_pred).float().mean().item()


if __name__ == '__main__':
    parser = argparse.ArgumentParser()
    parser.add_argument('--num_layers', type=int, default=3)
    parser.add_argument('--alpha', type=float, default=0.9)
    args = parser.parse_args([])

    dataset = PaperCitationDataset(num_papers=40, num_classes=6)

    edge_index = dataset.edge_index('paper', 'cites', 'paper')
    edge_index = torch.cat([edge_index, edge_index.flip(0)], dim=1).unique(dim=1)
    adj_t = gcn_norm(edge_index, dataset.num_papers)

    train_idx = dataset.get_idx_split('train')
    valid_idx = dataset.get_idx_split('valid')
    test_idx = dataset.get_idx_split('test')

    y_train = dataset.paper_label[train_idx].to(torch.long)
    y_valid = dataset.paper_label[valid_idx].to(torch.long)

    model = LabelPropagation(args.num_layers, args.alpha)
    y = torch.zeros(dataset.num_papers, dataset.num_classes)
    y[train_idx] = F.one_hot(y_train, dataset.num_classes).float()
    out = model(y, adj_t)
    y_pred = out.argmax(dim=-1)

    train_acc = accuracy(y_train, y_pred[train_idx])
    valid_acc = accuracy(y_valid, y_pred[valid_idx])

    # reference: propagate the train labels over the normalised graph with plain loops
    n, c = dataset.num_papers, dataset.num_classes
    deg = [0] * n
    edges = edge_index.t().tolist()
    for r, _ in edges:
        deg[r] += 1
    train = set(train_idx.tolist())
    labels = dataset.paper_label.tolist()
    cur = [[1.0 if (i in train and labels[i] == k) else 0.0 for k in range(c)] for i in range(n)]
    res = [[(1 - args.alpha) * v for v in row] for row in cur]
    for _ in range(args.num_layers):
        nxt = [[0.0] * c for _ in range(n)]
        for r, s in edges:
            w = (deg[r] ** -0.5) * (deg[s] ** -0.5)
            for k in range(c):
                nxt[r][k] += w * cur[s][k]
        cur = [[min(max(args.alpha * nxt[i][k] + res[i][k], 0.0), 1.0) for k in range(c)] for i in range(n)]
    assert torch.allclose(out, torch.tensor(cur), atol=1e-5)
    assert 0.0 <= train_acc <= 1.0 and 0.0 <= valid_acc <= 1.0
    print("ok")
