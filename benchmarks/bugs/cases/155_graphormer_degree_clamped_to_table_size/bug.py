import torch
import torch.nn as nn


def degree(index, num_nodes):
    # index: [E] node id of one endpoint of every edge
    return torch.zeros(num_nodes, dtype=torch.long).index_add_(0, index, torch.ones_like(index))  # [N]


def decrease_to_max_value(x, max_value):
    x = x.clone()
    x[x > max_value] = max_value
    return x


class CentralityEncoding(nn.Module):
    def __init__(self, max_in_degree, max_out_degree, node_dim):
        super().__init__()
        self.max_in_degree = max_in_degree
        self.max_out_degree = max_out_degree
        self.z_in = nn.Parameter(torch.randn(max_in_degree, node_dim))  # [max_in_degree, D]
        self.z_out = nn.Parameter(torch.randn(max_out_degree, node_dim))  # [max_out_degree, D]

    def forward(self, x, edge_index):
        # x: [N, D] node features, edge_index: [2, E]
        num_nodes = x.shape[0]
        in_degree = decrease_to_max_value(degree(edge_index[1], num_nodes), self.max_in_degree)  # [N]
        out_degree = decrease_to_max_value(degree(edge_index[0], num_nodes), self.max_out_degree)  # [N]
        return x + self.z_in[in_degree] + self.z_out[out_degree]


if __name__ == "__main__":
    torch.manual_seed(0)
    # a hub (node 0) linked both ways to 6 leaves, plus a small chain
    hub_edges = [(0, i) for i in range(1, 7)] + [(i, 0) for i in range(1, 7)]
    chain = [(7, 8), (8, 9)]
    edge_index = torch.tensor(hub_edges + chain).t()  # [2, 14]
    x = torch.randn(10, 16)  # [10, 16]
    encoder = CentralityEncoding(max_in_degree=5, max_out_degree=5, node_dim=16)
    with torch.no_grad():
        h = encoder(x, edge_index)
    print(h.shape)
