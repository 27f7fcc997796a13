import torch
import torch.nn as nn
import torch.nn.functional as F


class SensorGraphAttention(nn.Module):
    """Graph attention over sensor nodes, with a learned per-sensor embedding in the score.

    Args:
        in_channels (int): features per node.
        out_channels (int): features per head.
        heads (int): number of attention heads.
    """

    def __init__(self, in_channels, out_channels, heads=1):
        super().__init__()
        self.heads, self.out_channels = heads, out_channels
        self.lin = nn.Linear(in_channels, heads * out_channels, bias=False)
        self.att = nn.Parameter(torch.randn(1, heads, 2 * out_channels) * 0.1)

    def edge_softmax(self, scores, index, num_nodes):
        """scores: (E, H) raw scores; index: (E,) target node of each edge. Returns (E, H)."""
        smax = torch.full((num_nodes, scores.size(1)), -1e9).scatter_reduce(
            0, index.unsqueeze(-1).expand_as(scores), scores, reduce="amax")
        ex = (scores - smax[index]).exp()
        denom = torch.zeros(num_nodes, scores.size(1)).scatter_add_(0, index.unsqueeze(-1).expand_as(ex), ex)
        return ex / denom[index]

    def forward(self, x, edge_index, embedding):
        """
        Args:
            x (`torch.Tensor` of shape `(num_nodes, in_channels)`): node features.
            edge_index (`torch.LongTensor` of shape `(2, num_edges)`): source / target node of each edge.
            embedding (`torch.Tensor` of shape `(num_nodes, out_channels)`): sensor embeddings.

        Returns:
            `torch.Tensor` of shape `(num_nodes, heads * out_channels)`.
        """
        n = x.size(0)
        src, dst = edge_index
        h = self.lin(x).view(n, self.heads, self.out_channels)
        x_i, x_j = h[dst], h[src]
        key_i = torch.cat([x_i, embedding[dst].unsqueeze(1).expand_as(x_i)], dim=-1)[..., : 2 * self.out_channels]
        scores = F.leaky_relu((key_i * self.att).sum(-1), 0.2)
        alpha = self.edge_softmax(scores, dst, n).unsqueeze(-1)
        index = dst.view(-1, 1, 1).expand(-1, self.heads, self.out_channels)
        out = torch.zeros(n, self.heads, self.out_channels)
        out.scatter_add_(0, index, alpha)
        return out.view(n, -1)


if __name__ == "__main__":
    torch.manual_seed(0)
    layer = SensorGraphAttention(in_channels=5, out_channels=4, heads=2)
    x = torch.randn(6, 5)
    edge_index = torch.tensor([[0, 1, 2, 3, 4, 5, 1, 3], [1, 2, 3, 4, 5, 0, 0, 1]])
    out = layer(x, edge_index, torch.randn(6, 4))
    print(out.shape)
