import torch
import torch.nn as nn


def global_max_pool(x, batch, num_graphs):
    """Max over the nodes of each graph.

    Args:
        x: node features of shape (num_nodes, channels).
        batch: graph id of every node, shape (num_nodes,).
        num_graphs: number of graphs B.
    Returns:
        (B, channels) tensor.
    """
    index = batch.unsqueeze(-1).expand(-1, x.size(-1))
    out = torch.full((num_graphs, x.size(-1)), float("-inf"))
    return out.scatter_reduce(0, index, x, reduce="amax", include_self=True)


class TopKPool(nn.Module):
    """Keeps the `ratio` best-scoring nodes of each graph.

    Returns the kept features (k, channels) and the kept node positions (k,).
    """

    def __init__(self, channels, ratio=0.5):
        super().__init__()
        self.score = nn.Linear(channels, 1)
        self.ratio = ratio

    def forward(self, x, batch, num_graphs):
        s = self.score(x).squeeze(-1)
        keep = []
        for g in range(num_graphs):
            nodes = (batch == g).nonzero().squeeze(-1)
            k = max(1, int(self.ratio * nodes.numel()))
            keep.append(nodes[s[nodes].topk(k).indices])
        perm = torch.cat(keep)
        return x[perm] * torch.sigmoid(s[perm]).unsqueeze(-1), perm


class GraphClassifier(nn.Module):
    def __init__(self, in_ch, hid, n_cls):
        super().__init__()
        self.lin = nn.Linear(in_ch, hid)
        self.pool = TopKPool(hid)
        self.head = nn.Linear(hid, n_cls)

    def forward(self, x, batch, num_graphs):
        h = torch.relu(self.lin(x))
        h, perm = self.pool(h, batch, num_graphs)
        return self.head(global_max_pool(h, batch[perm], num_graphs))


if __name__ == "__main__":
    torch.manual_seed(0)
    batch = torch.tensor([0, 0, 0, 0, 1, 1, 1, 1, 1, 1])
    x = torch.randn(10, 5)
    model = GraphClassifier(5, 8, 3)
    with torch.no_grad():
        logits = model(x, batch, num_graphs=2)
        h = torch.relu(model.lin(x))
        hp, perm = model.pool(h, batch, 2)
        kept_batch = batch[perm].tolist()
        for g in range(2):
            rows = [hp[i] for i in range(len(kept_batch)) if kept_batch[i] == g]
            pooled = torch.stack(rows).max(dim=0).values
            assert torch.allclose(logits[g], model.head(pooled), atol=1e-6)
    print("ok")
