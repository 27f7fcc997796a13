import torch
import torch.nn as nn


def topk(score, ratio, batch):
    """Keep the top ``ratio`` fraction of nodes of every graph.

    Args:
        score (Tensor): node scores of shape (N,).
        ratio (float): fraction of nodes kept per graph.
        batch (LongTensor): graph id of each node, shape (N,), sorted.

    Returns:
        LongTensor: indices of the kept nodes, shape (M,).
    """
    num_graphs = int(batch.max()) + 1
    ones = torch.ones(score.size(0), dtype=torch.long)
    num_nodes = torch.zeros(num_graphs, dtype=torch.long).scatter_add_(0, batch, ones)
    keep = (ratio * num_nodes.float()).ceil().long()
    starts = torch.cumsum(num_nodes, 0) - num_nodes
    perm = []
    for g in range(num_graphs):
        seg = score[starts[g]: starts[g] + num_nodes[g]]
        perm.append(starts[g] + seg.argsort(descending=True)[: keep[g]])
    return torch.cat(perm)


class SAGPool(nn.Module):
    def __init__(self, dim, ratio=0.5):
        super().__init__()
        self.score = nn.Linear(dim, 1)
        self.ratio = ratio

    def forward(self, x, batch):
        """Args:
            x (Tensor): node features of shape (N, F).
            batch (LongTensor): graph id of each node, shape (N,).

        Returns:
            (Tensor, LongTensor): pooled features (M, F) and graph ids (M,).
        """
        s = self.score(x).squeeze(-1)
        perm = topk(s, self.ratio, batch)
        return x[perm] * torch.tanh(s[perm]).unsqueeze(-1), batch[perm]


class HierarchicalNet(nn.Module):
    def __init__(self, in_dim, hidden):
        super().__init__()
        self.lin1 = nn.Linear(in_dim, hidden)
        self.pool1 = SAGPool(hidden)
        self.lin2 = nn.Linear(hidden, hidden)
        self.pool2 = SAGPool(hidden)

    def forward(self, x, batch):
        h, batch1 = self.pool1(torch.relu(self.lin1(x)), batch)
        h, batch2 = self.pool2(torch.relu(self.lin2(h)), batch1)
        num_graphs = int(batch.max()) + 1
        out = torch.zeros(num_graphs, h.size(1)).index_add_(0, batch2, h)
        return out


if __name__ == "__main__":
    torch.manual_seed(0)
    batch = torch.tensor([0] * 7 + [1] * 5 + [2] * 4)
    x = torch.randn(batch.numel(), 6)
    net = HierarchicalNet(6, 8)
    import math
    with torch.no_grad():
        out = net(x, batch)

        def ref_pool(pool, feats, graph_ids):
            scores = pool.score(feats).squeeze(-1).tolist()
            kept_x, kept_g = [], []
            for g in sorted(set(graph_ids)):
                nodes = [i for i, gi in enumerate(graph_ids) if gi == g]
                k = math.ceil(pool.ratio * len(nodes))
                best = sorted(nodes, key=lambda i: -scores[i])[:k]
                for i in best:
                    kept_x.append(feats[i] * math.tanh(scores[i]))
                    kept_g.append(g)
            return torch.stack(kept_x), kept_g

        h, g1 = ref_pool(net.pool1, torch.relu(net.lin1(x)), batch.tolist())
        h, g2 = ref_pool(net.pool2, torch.relu(net.lin2(h)), g1)
        for g in range(3):
            want = sum(h[i] for i, gi in enumerate(g2) if gi == g)
            assert torch.allclose(out[g], want, atol=1e-5), g
    print("ok")
