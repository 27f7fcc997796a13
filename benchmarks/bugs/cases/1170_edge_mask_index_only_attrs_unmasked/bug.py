import torch
import torch.nn as nn

CFG = {"node_dim": 6, "edge_dim": 4, "hidden": 5, "edge_threshold": 0.5}


class EdgeToNodeBlock(nn.Module):
    def __init__(self, cfg):
        super().__init__()
        self.edge_score = nn.Linear(cfg["edge_dim"], 1)
        self.edge_mlp = nn.Sequential(nn.Linear(cfg["edge_dim"], cfg["hidden"]), nn.Tanh())
        self.node_mlp = nn.Linear(cfg["node_dim"] + cfg["hidden"], cfg["node_dim"])
        self.threshold = cfg["edge_threshold"]

    def filter_edges(self, edge_index, edge_attr):
        keep = torch.sigmoid(self.edge_score(edge_attr)).squeeze(-1) > self.threshold
        return edge_index[:, keep], edge_attr

    def forward(self, x, edge_index, edge_attr):
        edge_index, edge_attr = self.filter_edges(edge_index, edge_attr)
        dst = edge_index[1]
        messages = self.edge_mlp(edge_attr)
        agg = x.new_zeros(x.size(0), messages.size(-1))
        agg.scatter_add_(0, dst.unsqueeze(-1).expand(-1, messages.size(-1)), messages)
        return x + self.node_mlp(torch.cat([x, agg], dim=-1)), agg


def build_graph(cfg, num_nodes, num_edges, seed=0):
    g = torch.Generator().manual_seed(seed)
    x = torch.randn(num_nodes, cfg["node_dim"], generator=g)
    edge_index = torch.randint(0, num_nodes, (2, num_edges), generator=g)
    edge_attr = torch.randn(num_edges, cfg["edge_dim"], generator=g)
    return x, edge_index, edge_attr


if __name__ == "__main__":
    torch.manual_seed(0)
    block = EdgeToNodeBlock(CFG)
    x, edge_index, edge_attr = build_graph(CFG, num_nodes=5, num_edges=12)
    with torch.no_grad():
        _, agg = block(x, edge_index, edge_attr)
        keep = torch.sigmoid(block.edge_score(edge_attr)).squeeze(-1) > CFG["edge_threshold"]
    print("kept edges:", keep.nonzero().flatten().tolist())
    print("aggregated messages per node (sum):", [round(v, 4) for v in agg.sum(-1).tolist()])
    kept_msgs = block.edge_mlp(edge_attr[keep]).detach()
    expected = torch.zeros(5, CFG["hidden"]).index_add_(0, edge_index[1, keep], kept_msgs)
    print("from the kept edges' own features:  ", [round(v, 4) for v in expected.sum(-1).tolist()])
