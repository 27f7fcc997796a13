import torch
import torch.nn as nn


class Graph:
    """Minimal molecular graph container.

    Args:
        x (Tensor): node features, shape (num_nodes, x_dim).
        edge_index (LongTensor): shape (2, num_edges), both directions listed.
    """

    def __init__(self, x, edge_index):
        self.x = x
        self.edge_index = edge_index


class KernelLayer(nn.Module):
    """Degree-aware convolution: each node is scored against the kernel of its degree.

    Args:
        x_dim (int): input feature size.
        out_dim (int): output feature size.
        max_degree (int): number of degree kernels.
    """

    def __init__(self, x_dim, out_dim, max_degree=4):
        super().__init__()
        self.kernels = nn.Parameter(torch.randn(max_degree + 1, x_dim, out_dim) * 0.1)
        self.max_degree = max_degree

    def get_degree(self, x, edge_index):
        """Node degrees.

        Args:
            x (Tensor): shape (num_nodes, x_dim).
            edge_index (LongTensor): shape (2, num_edges).

        Returns:
            Tensor: shape (num_nodes,), float degrees.
        """
        deg = x.new_zeros(x.size(0))
        return deg.scatter_add_(0, edge_index[0], x.new_ones(edge_index.size(1)))

    def forward(self, data):
        deg = self.get_degree(data.x, data.edge_index).long().clamp(max=self.max_degree)
        weight = self.kernels[deg]  # (num_nodes, x_dim, out_dim)
        return torch.einsum("ni,nio->no", data.x, weight)


class MolGCN(nn.Module):
    """Stack of kernel layers with sum aggregation over neighbours.

    Args:
        num_layers (int): number of kernel layers.
        x_dim (int): atom feature size.
        hidden (int): hidden size.
    """

    def __init__(self, num_layers, x_dim, hidden):
        super().__init__()
        dims = [x_dim] + [hidden] * num_layers
        self.layers = nn.ModuleList(KernelLayer(dims[i], dims[i + 1]) for i in range(num_layers))

    def propagate(self, edge_index, h):
        src, dst = edge_index
        return torch.zeros_like(h).index_add_(0, dst, h[src]) + h

    def forward(self, *argv, **kwargv):
        if len(kwargv) == 1:
            x, edge_index = kwargv["data"].x, kwargv["data"].edge_index
        else:
            x, edge_index = kwargv["x"], kwargv["edge_index"]
        h = x
        for layer in self.layers:
            data.x = h
            sim = layer(data=data)
            h = torch.relu(self.propagate(edge_index, sim))
        return h.sum(dim=0)


def chain_molecule(n_atoms, x_dim, seed):
    g = torch.Generator().manual_seed(seed)
    src = torch.arange(n_atoms - 1)
    edge_index = torch.stack([torch.cat([src, src + 1]), torch.cat([src + 1, src])])
    return Graph(torch.randn(n_atoms, x_dim, generator=g), edge_index)


if __name__ == "__main__":
    torch.manual_seed(0)
    model = MolGCN(num_layers=2, x_dim=5, hidden=8)
    train_set = [chain_molecule(40, 5, seed=s) for s in range(3)]
    for data in train_set:
        emb = model(data=data)
    mol = chain_molecule(12, 5, seed=7)
    print(model(x=mol.x, edge_index=mol.edge_index))
