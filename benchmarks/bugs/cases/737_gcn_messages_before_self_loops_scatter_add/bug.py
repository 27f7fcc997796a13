import torch
import torch.nn as nn


def add_self_loops(edge_index, num_nodes):
    loops = torch.arange(num_nodes).unsqueeze(0).repeat(2, 1)
    return torch.cat([edge_index, loops], dim=1)


class SumConv(nn.Module):
    """Graph convolution that sums transformed neighbour features.

    Args:
        in_dim (int): input feature size F.
        out_dim (int): output feature size H.

    Inputs:
        x (Tensor): node features of shape (N, F).
        edge_index (Tensor): long tensor of shape (2, E), rows (source, target).

    Returns:
        Tensor of shape (N, H).
    """

    def __init__(self, in_dim, out_dim):
        super().__init__()
        self.lin = nn.Linear(in_dim, out_dim)

    def forward(self, x, edge_index):
        h = self.lin(x)
        src, dst = edge_index
        messages = h[src]
        edge_index = add_self_loops(edge_index, x.size(0))
        index = edge_index[1].unsqueeze(1).expand(-1, h.size(1))
        out = torch.zeros_like(h)
        return out.scatter_add_(0, index, messages)


if __name__ == "__main__":
    torch.manual_seed(0)
    x = torch.randn(5, 3)
    edge_index = torch.tensor([[0, 1, 1, 2, 3, 4], [1, 0, 2, 1, 4, 3]])
    conv = SumConv(3, 4)
    print(conv(x, edge_index))
