import torch
import torch.nn as nn


def scatter_sum(src, index, dim=0, dim_size=None):
    """Sum the rows of ``src`` that share a segment id.

    Args:
        src (Tensor): values of shape ``(num_items, channels)``.
        index (LongTensor): segment id of every item, shape ``(num_items,)``.
        dim (int): dimension of ``src`` that ``index`` runs along.
        dim_size (int, optional): number of segments; inferred from ``index`` when omitted.

    Returns:
        Tensor of shape ``(dim_size, channels)``.
    """
    if dim_size is None:
        dim_size = int(index.max()) + 1
    out = src.new_zeros(dim_size, src.size(-1))
    return out.scatter_add_(dim, index.unsqueeze(-1).expand_as(src), src)


def scatter_mean(src, index, dim=0, dim_size=None):
    """Mean of the rows of ``src`` per segment; same arguments and shapes as :func:`scatter_sum`."""
    total = scatter_sum(src, index, dim, dim_size)
    count = scatter_sum(torch.ones_like(src), index, dim, dim_size)
    return total / count.clamp(min=1)


class GlobalContextAttention(nn.Module):
    """SimGNN-style attention pooling of node embeddings into one vector per graph.

    Args:
        channels (int): node embedding size.

    Inputs:
        x: node embeddings of shape ``(num_nodes, channels)``.
        batch: graph id of every node, shape ``(num_nodes,)``.
        size: number of graphs in the mini-batch.

    Returns:
        Graph embeddings of shape ``(size, channels)``.
    """

    def __init__(self, channels):
        super().__init__()
        self.weight = nn.Parameter(torch.empty(channels, channels))
        nn.init.xavier_uniform_(self.weight)

    def forward(self, x, batch, size):
        mean = scatter_mean(x, batch, size)
        context = torch.tanh(mean @ self.weight)
        coefs = torch.sigmoid((x * context[batch]).sum(dim=1, keepdim=True))
        return scatter_sum(coefs * x, batch, size)


def make_batch(cfg):
    sizes = cfg["nodes_per_graph"]
    x = torch.randn(sum(sizes), cfg["channels"])
    batch = torch.repeat_interleave(torch.arange(len(sizes)), torch.tensor(sizes))
    return x, batch


if __name__ == "__main__":
    torch.manual_seed(0)
    cfg = {"nodes_per_graph": [5, 7, 4], "channels": 16}
    pool = GlobalContextAttention(cfg["channels"])
    x, batch = make_batch(cfg)
    out = pool(x, batch, len(cfg["nodes_per_graph"]))
    rows = []
    for g in range(len(cfg["nodes_per_graph"])):
        xg = x[batch == g]
        ctx = torch.tanh(xg.mean(0) @ pool.weight)
        rows.append((torch.sigmoid(xg @ ctx).unsqueeze(1) * xg).sum(0))
    print("graph embeddings match per-graph loop:", torch.allclose(out, torch.stack(rows), atol=1e-5))
