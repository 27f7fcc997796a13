import torch
from torch import nn


def global_mean_pool(x, batch, size=None):
    """Average node features per graph.

    Args:
        x (Tensor): node features of shape ``(num_nodes, channels)``.
        batch (LongTensor): graph id of every node, shape ``(num_nodes,)``.
        size (int, optional): number of graphs ``B``; inferred from ``batch`` when omitted.

    Returns:
        Tensor: pooled features of shape ``(B, channels)``.
    """
    if size is None:
        size = int(batch.max()) + 1
    index = batch.unsqueeze(-1).expand_as(x)
    summed = x.new_zeros(size, x.size(1)).scatter_add_(0, index, x)
    count = x.new_zeros(size).scatter_add_(0, batch, torch.ones_like(x[:, 0]))
    return summed / count.clamp(min=1).unsqueeze(-1)


class GraphClassifier(nn.Module):
    """Node MLP + mean readout + linear head.

    Args:
        in_channels (int): node feature size ``F``.
        hidden (int): hidden size ``H``.
        num_classes (int): number of graph labels ``C``.
    """

    def __init__(self, in_channels, hidden, num_classes):
        super().__init__()
        self.node_mlp = nn.Sequential(nn.Linear(in_channels, hidden), nn.ReLU())
        self.head = nn.Linear(hidden, num_classes)

    def forward(self, x, batch):
        """x: ``(N, F)`` node features, batch: ``(N,)`` graph ids -> logits ``(B, C)``."""
        h = self.node_mlp(x)
        return self.head(global_mean_pool(h, batch))


def group_by_node_type(x, batch, node_type):
    """Reorder the nodes of a mini-batch so that nodes of the same type are contiguous."""
    order = torch.argsort(node_type, stable=True)
    return x[order], batch[order]


if __name__ == "__main__":
    torch.manual_seed(0)
    model = GraphClassifier(in_channels=6, hidden=16, num_classes=3)
    # two graphs of 5 nodes each, as produced by the collate function
    batch = torch.tensor([0, 0, 0, 0, 0, 1, 1, 1, 1, 1])
    x = torch.randn(10, 6)
    node_type = torch.tensor([0, 1, 1, 2, 0, 1, 0, 0, 1, 0])
    x, batch = group_by_node_type(x, batch, node_type)
    h = model.node_mlp(x)
    pooled = global_mean_pool(h, batch)
    ref = torch.zeros(2, 16)
    for g in range(2):
        rows = [h[i] for i in range(h.size(0)) if int(batch[i]) == g]
        ref[g] = torch.stack(rows).mean(0)
    assert pooled.shape == (2, 16)
    assert torch.allclose(pooled, ref, atol=1e-6)
    assert model(x, batch).shape == (2, 3)
    print("ok")
