import torch
import torch.nn as nn


def scatter_add(src, index, dim=0, dim_size=None):
    """Sums `src` rows that share the same `index` entry.

    Args:
        src (Tensor): values, shape (E, C).
        index (LongTensor): target row of each value, shape (E,).
        dim (int): dimension to scatter along.
        dim_size (int, optional): number of output rows; defaults to `index.max() + 1`.

    Returns:
        Tensor of shape (dim_size, C).
    """
    if dim_size is None:
        dim_size = int(index.max()) + 1 if index.numel() > 0 else 0
    size = list(src.size())
    size[dim] = dim_size
    out = src.new_zeros(size)
    return out.scatter_add_(dim, index.view(-1, 1).expand_as(src), src)


class EdgeConditionedConv(nn.Module):
    """Edge-conditioned convolution (Gilmer et al., 2017 / Simonovsky & Komodakis, 2017).

    Args:
        in_channels (int): node feature size.
        out_channels (int): output feature size.
        edge_dim (int): edge attribute size.
    """

    def __init__(self, in_channels, out_channels, edge_dim):
        super().__init__()
        self.in_channels = in_channels
        self.out_channels = out_channels
        self.edge_net = nn.Sequential(nn.Linear(edge_dim, 32), nn.ReLU(), nn.Linear(32, in_channels * out_channels))
        self.root = nn.Parameter(torch.randn(in_channels, out_channels) * 0.1)
        self.bias = nn.Parameter(torch.zeros(out_channels))

    def forward(self, x, edge_index, edge_attr):
        """
        Args:
            x (Tensor): node features, shape (N, in_channels).
            edge_index (LongTensor): (target, source) pairs, shape (2, E).
            edge_attr (Tensor): edge attributes, shape (E, edge_dim).

        Returns:
            Tensor: shape (N, out_channels).
        """
        row, col = edge_index
        weight = self.edge_net(edge_attr).view(-1, self.in_channels, self.out_channels)
        msg = torch.einsum("ei,eio->eo", x[col], weight)
        out = scatter_add(msg, row, dim=0, dim_size=x.size(0))
        return out + x @ self.root + self.bias


if __name__ == "__main__":
    torch.manual_seed(0)
    conv = EdgeConditionedConv(in_channels=4, out_channels=8, edge_dim=3)
    # 6 nodes; node 5 has no incoming edge
    x = torch.randn(6, 4)
    edge_index = torch.tensor([[0, 1, 1, 2, 3, 4, 4], [1, 0, 2, 1, 4, 3, 2]])
    edge_attr = torch.randn(7, 3)
    out = conv(x, edge_index, edge_attr)
    with torch.no_grad():
        weight = conv.edge_net(edge_attr).view(-1, 4, 8)
        for n in range(6):
            expected = x[n] @ conv.root + conv.bias
            for e in range(edge_index.size(1)):
                if edge_index[0, e] == n:
                    expected = expected + x[edge_index[1, e]] @ weight[e]
            assert torch.allclose(out[n], expected, atol=1e-5)
    print("ok")
