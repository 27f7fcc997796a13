import torch
import torch.nn as nn


class MultiHeadEdgeConv(nn.Module):
    """Edge-conditioned message passing with per-head attention weights.

    Args:
        in_dim: node feature size.
        heads: number of attention heads.
        head_dim: feature size of each head.
    """

    def __init__(self, in_dim, heads, head_dim):
        super().__init__()
        self.heads, self.head_dim = heads, head_dim
        self.value = nn.Linear(in_dim, heads * head_dim)
        self.score = nn.Linear(2 * in_dim, heads)

    def messages(self, x, src, dst):
        """Per-edge messages.

        Args:
            x (`torch.FloatTensor` of shape `(num_nodes, in_dim)`)
            src, dst (`torch.LongTensor` of shape `(num_edges,)`)

        Returns:
            `torch.FloatTensor` of shape `(num_edges, heads, head_dim)`.
        """
        alpha = torch.sigmoid(self.score(torch.cat([x[src], x[dst]], dim=-1)))        # (E, heads)
        v = self.value(x[src]).view(-1, self.heads, self.head_dim)                    # (E, heads, head_dim)
        return (alpha.unsqueeze(-1) * v).mean(dim=1)

    def forward(self, x, edge_index):
        """
        Args:
            x (`torch.FloatTensor` of shape `(num_nodes, in_dim)`)
            edge_index (`torch.LongTensor` of shape `(2, num_edges)`)

        Returns:
            `torch.FloatTensor` of shape `(num_nodes, heads, head_dim)`.
        """
        src, dst = edge_index
        out = x.new_zeros(x.size(0), self.heads, self.head_dim)
        out.index_add_(0, dst, self.messages(x, src, dst))
        return out


if __name__ == "__main__":
    torch.manual_seed(0)
    conv = MultiHeadEdgeConv(in_dim=12, heads=4, head_dim=6)
    edge_index = torch.tensor([[0, 1, 2, 3, 4, 0, 2], [1, 2, 3, 4, 0, 3, 0]])
    h = conv(torch.randn(5, 12), edge_index)
    print("node states:", tuple(h.shape))
