import torch
import torch.nn as nn


class MessagePassingLayer(nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.msg = nn.Linear(2 * dim, dim)
        self.upd = nn.Linear(2 * dim, dim)

    def forward(self, x, edge_index):
        # x: [N, D]   edge_index: [2, E] (source, target)
        src, dst = edge_index
        messages = torch.relu(self.msg(torch.cat([x[src], x[dst]], dim=-1)))  # [E, D]
        agg = torch.zeros_like(x).index_add_(0, dst, messages)  # [N, D]
        return torch.relu(self.upd(torch.cat([x, agg], dim=-1)))


class EnergyRegressor(nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.layer = MessagePassingLayer(dim)
        self.out = nn.Linear(dim, 1)

    def forward(self, x, edge_index, batch, num_graphs):
        # batch: [N] graph id of every node
        h = self.layer(x, edge_index)
        pooled = torch.zeros(num_graphs, h.size(1)).index_add_(0, batch, h)  # [G, D]
        return self.out(pooled).squeeze(-1)  # [G]


def compute_loss(model, data, loss_fn):
    pred = model(data["x"], data["edge_index"], data["batch"], data["num_graphs"])  # [G]
    target = data["energy"]  # [G, 1], as stored by the dataset pipeline
    return loss_fn(pred, target)


if __name__ == "__main__":
    torch.manual_seed(0)
    num_graphs, nodes_per_graph, dim = 4, 5, 8
    batch = torch.arange(num_graphs).repeat_interleave(nodes_per_graph)
    src = torch.randint(0, nodes_per_graph, (30,)) + 5 * torch.randint(0, num_graphs, (30,))
    dst = src - src % nodes_per_graph + torch.randint(0, nodes_per_graph, (30,))
    data = {"x": torch.randn(20, dim), "edge_index": torch.stack([src, dst]), "batch": batch,
            "num_graphs": num_graphs, "energy": torch.randn(num_graphs, 1)}
    model = EnergyRegressor(dim)
    loss = compute_loss(model, data, nn.MSELoss())
    print("energy MSE:", loss.item())
