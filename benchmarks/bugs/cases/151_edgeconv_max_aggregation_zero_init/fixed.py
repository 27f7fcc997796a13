import torch
import torch.nn as nn


def scatter_max(src, index, dim_size):
    """Max of the rows of ``src`` that share an index.

    Args:
        src (Tensor): (E, F) one message per edge.
        index (LongTensor): (E,) target node of every edge.
        dim_size (int): number of nodes N.

    Returns:
        Tensor: (N, F) element-wise max over the incoming messages.
    """
    out = torch.zeros(dim_size, src.size(1), dtype=src.dtype)
    return out.scatter_reduce(0, index.unsqueeze(1).expand_as(src), src, reduce="amax", include_self=False)


class EdgeConv(nn.Module):
    """h_i' = max_{j -> i} MLP([h_i, h_j - h_i]).

    Args:
        in_dim (int): input feature size F_in.
        out_dim (int): output feature size F_out.
    """

    def __init__(self, in_dim, out_dim):
        super().__init__()
        self.mlp = nn.Sequential(nn.Linear(2 * in_dim, out_dim), nn.Tanh(), nn.Linear(out_dim, out_dim))

    def forward(self, x, edge_index):
        """
        Args:
            x (Tensor): (N, F_in) node features.
            edge_index (LongTensor): (2, E) source and target of every edge.

        Returns:
            Tensor: (N, F_out).
        """
        src, dst = edge_index
        messages = self.mlp(torch.cat([x[dst], x[src] - x[dst]], dim=-1))  # (E, F_out)
        return scatter_max(messages, dst, x.size(0))


if __name__ == "__main__":
    torch.manual_seed(0)
    x = torch.randn(6, 3)
    edge_index = torch.tensor([[1, 2, 0, 3, 4, 5, 0, 2, 4, 1], [0, 0, 1, 1, 2, 3, 4, 5, 5, 3]])
    conv = EdgeConv(3, 8)
    with torch.no_grad():
        out = conv(x, edge_index)
        messages = conv.mlp(torch.cat([x[edge_index[1]], x[edge_index[0]] - x[edge_index[1]]], dim=-1))
    for n in range(6):
        incoming = [messages[e] for e in range(edge_index.size(1)) if int(edge_index[1, e]) == n]
        expected = torch.stack(incoming).max(0).values if incoming else torch.zeros(8)
        assert torch.equal(out[n], expected)
    print("most negative aggregated value:", out.min().item())
    print("ok")
