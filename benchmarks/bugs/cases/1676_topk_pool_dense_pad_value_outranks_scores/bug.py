import torch
from torch import nn


def topk(x, ratio, batch):
    r"""Selects the top ``ceil(ratio * N_i)`` nodes of every graph.

    Args:
        x (Tensor): node scores of shape ``[num_nodes]``.
        ratio (float): fraction of nodes to keep per graph.
        batch (LongTensor): graph assignment of shape ``[num_nodes]``, sorted.

    Returns:
        LongTensor: indices of the kept nodes, shape ``[num_kept]``.
    """
    num_nodes = torch.zeros(int(batch.max()) + 1, dtype=torch.long).scatter_add_(
        0, batch, torch.ones_like(batch))
    batch_size, max_num_nodes = num_nodes.size(0), int(num_nodes.max())
    cum_num_nodes = torch.cat([num_nodes.new_zeros(1), num_nodes.cumsum(0)[:-1]])

    index = torch.arange(batch.size(0))
    index = (index - cum_num_nodes[batch]) + batch * max_num_nodes

    dense_x = x.new_full((batch_size * max_num_nodes,), -2.0)
    dense_x[index] = x
    dense_x = dense_x.view(batch_size, max_num_nodes)

    _, perm = dense_x.sort(dim=-1, descending=True)
    perm = (perm + cum_num_nodes.view(-1, 1)).view(-1)

    k = (ratio * num_nodes.float()).ceil().long()
    mask = torch.cat([torch.arange(int(k[i])) + i * max_num_nodes for i in range(batch_size)])
    return perm[mask]


class TopKPooling(nn.Module):
    r"""Projection-score top-k pooling (Gao & Ji), without a squashing nonlinearity.

    Args:
        in_channels (int): size of each node feature.
        ratio (float): pooling ratio.
    """

    def __init__(self, in_channels, ratio=0.5):
        super().__init__()
        self.ratio = ratio
        self.weight = nn.Parameter(torch.empty(in_channels))
        nn.init.normal_(self.weight)

    def forward(self, x, batch):
        r"""
        Args:
            x (Tensor): node features ``[num_nodes, in_channels]``.
            batch (LongTensor): graph index per node ``[num_nodes]``.

        Returns:
            (Tensor, LongTensor, LongTensor): pooled features ``[num_kept, in_channels]``,
            their graph index and the kept node ids.
        """
        score = (x * self.weight).sum(dim=-1) / self.weight.norm(p=2)
        perm = topk(score, self.ratio, batch)
        x = x[perm] * score[perm].view(-1, 1)
        return x, batch[perm], perm


if __name__ == "__main__":
    torch.manual_seed(0)
    pool = TopKPooling(in_channels=4, ratio=0.5)
    with torch.no_grad():
        pool.weight.copy_(torch.tensor([1.0, 0.0, 0.0, 0.0]))
    x = torch.randn(9, 4)
    x[:3, 0] = torch.tensor([1.5, -3.0, -4.5])  # graph 0: two strongly negative scores
    batch = torch.tensor([0, 0, 0, 1, 1, 1, 1, 1, 1])
    out, out_batch, perm = pool(x, batch)
    print("kept nodes:", perm.tolist())
    print("graph of kept nodes:", batch[perm].tolist(), "pooled batch:", out_batch.tolist())
