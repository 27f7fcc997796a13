import torch
import torch.nn as nn


class GraphData:
    def __init__(self, node_features, edge_index):
        self.node_features = node_features
        self.edge_index = edge_index
        self.num_nodes = node_features.size(0)


class BatchGraphData:
    def __init__(self, graph_list):
        self.graph_list = graph_list
        self.node_features = torch.cat([g.node_features for g in graph_list])
        num_nodes_list = [g.num_nodes for g in graph_list]
        self.edge_index = torch.cat(
            [g.edge_index + prev for prev, g in zip([0] + num_nodes_list[:-1], graph_list)], dim=1
        )
        self.graph_index = torch.cat([torch.full((n,), i) for i, n in enumerate(num_nodes_list)])
        self.num_graphs = len(graph_list)


class MeanConv(nn.Module):
    def __init__(self, cfg):
        super().__init__()
        self.lin_self = nn.Linear(cfg["in_dim"], cfg["hidden"])
        self.lin_nbr = nn.Linear(cfg["in_dim"], cfg["hidden"], bias=False)

    def forward(self, x, edge_index):
        src, dst = edge_index
        msg = x.index_select(0, src)
        agg = x.new_zeros(x.size(0), x.size(1)).index_add_(0, dst, msg)
        deg = x.new_zeros(x.size(0)).index_add_(0, dst, torch.ones_like(dst, dtype=x.dtype))
        agg = agg / deg.clamp(min=1).unsqueeze(-1)
        return torch.relu(self.lin_self(x) + self.lin_nbr(agg))


class GraphRegressor(nn.Module):
    def __init__(self, cfg):
        super().__init__()
        self.conv = MeanConv(cfg)
        self.out = nn.Linear(cfg["hidden"], 1)

    def forward(self, batch):
        h = self.conv(batch.node_features, batch.edge_index)
        pooled = h.new_zeros(batch.num_graphs, h.size(1)).index_add_(0, batch.graph_index, h)
        return self.out(pooled).squeeze(-1)


def ring(n, cfg, gen):
    src = torch.arange(n)
    dst = (src + 1) % n
    edge_index = torch.cat([torch.stack([src, dst]), torch.stack([dst, src])], dim=1)
    return GraphData(torch.randn(n, cfg["in_dim"], generator=gen), edge_index)


if __name__ == "__main__":
    cfg = {"in_dim": 5, "hidden": 8, "sizes": [4, 3, 5, 6]}
    torch.manual_seed(0)
    gen = torch.Generator().manual_seed(0)
    graphs = [ring(n, cfg, gen) for n in cfg["sizes"]]
    model = GraphRegressor(cfg)
    with torch.no_grad():
        batched = model(BatchGraphData(graphs))
        one_by_one = torch.cat([model(BatchGraphData([g])) for g in graphs])
    print("batched   :", [round(v, 4) for v in batched.tolist()])
    print("one by one:", [round(v, 4) for v in one_by_one.tolist()])
    print("max |diff|:", (batched - one_by_one).abs().max().item())
