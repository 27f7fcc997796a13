import torch
from torch import nn


def scatter_add(src, index, dim_size):
    out = src.new_zeros(dim_size, src.shape[-1])
    return out.index_add_(0, index, src)


class Graph:
    def __init__(self, edge_list, num_node, edge_feature, edge_weight=None):
        self.edge_list = edge_list
        self.num_node = num_node
        self.edge_feature = edge_feature
        self.edge_weight = edge_weight if edge_weight is not None else torch.ones(len(edge_list))

    @property
    def degree_in(self):
        return torch.bincount(self.edge_list[:, 0], minlength=self.num_node).float()

    @property
    def degree_out(self):
        return torch.bincount(self.edge_list[:, 1], minlength=self.num_node).float()


class GraphConv(nn.Module):
    def __init__(self, input_dim, output_dim, edge_input_dim=None):
        super().__init__()
        self.input_dim = input_dim
        self.linear = nn.Linear(input_dim, output_dim)
        self.edge_linear = nn.Linear(edge_input_dim, input_dim) if edge_input_dim else None

    def message_and_aggregate(self, graph, input):
        node_in = torch.cat([graph.edge_list[:, 0], torch.arange(graph.num_node)])
        node_out = torch.cat([graph.edge_list[:, 1], torch.arange(graph.num_node)])
        edge_weight = torch.cat([graph.edge_weight, torch.ones(graph.num_node)])
        degree_in = graph.degree_in + 1
        degree_out = graph.degree_out + 1
        edge_weight = edge_weight / ((degree_in[node_in] * degree_out[node_out]).sqrt() + 1e-10)
        adjacency = torch.sparse_coo_tensor(torch.stack([node_in, node_out]), edge_weight,
                                            (graph.num_node, graph.num_node))
        update = torch.sparse.mm(adjacency.t(), input)
        if self.edge_linear:
            edge_input = self.edge_linear(graph.edge_feature.float())
            edge_weight = edge_weight.unsqueeze(-1)
            edge_update = scatter_add(edge_input * edge_weight, graph.edge_list[:, 1], dim_size=graph.num_node)
            update += edge_update
        return update

    def forward(self, graph, input):
        return torch.relu(self.linear(self.message_and_aggregate(graph, input)))


def random_graph(cfg):
    g = torch.Generator().manual_seed(cfg["seed"])
    edges = torch.randint(cfg["num_node"], (cfg["num_edge"], 2), generator=g)
    feats = torch.randn(cfg["num_edge"], cfg["edge_dim"], generator=g)
    return Graph(edges, cfg["num_node"], feats)


if __name__ == "__main__":
    cfg = {"seed": 0, "num_node": 6, "num_edge": 11, "edge_dim": 3, "hidden": 5}
    torch.manual_seed(cfg["seed"])
    graph = random_graph(cfg)
    layer = GraphConv(cfg["hidden"], cfg["hidden"], edge_input_dim=cfg["edge_dim"])
    x = torch.randn(cfg["num_node"], cfg["hidden"])
    print("node features:", layer(graph, x).shape)
