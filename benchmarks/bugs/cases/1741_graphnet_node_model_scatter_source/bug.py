import torch
import torch.nn as nn


def scatter_mean(src, index, dim_size):
    # src: [E, F], index: [E] with max entry dim_size - 1
    out = src.new_zeros(dim_size, src.size(1)).index_add_(0, index, src)
    count = torch.bincount(index, minlength=dim_size).clamp(min=1)
    return out / count.unsqueeze(1).to(src.dtype)


class NodeModel(nn.Module):
    def __init__(self, f_x, f_e, f_u, hidden):
        super().__init__()
        self.node_mlp_1 = nn.Sequential(nn.Linear(f_x + f_e, hidden), nn.ReLU(), nn.Linear(hidden, hidden))
        self.node_mlp_2 = nn.Sequential(nn.Linear(f_x + hidden + f_u, hidden), nn.ReLU(), nn.Linear(hidden, f_x))

    def forward(self, x, edge_index, edge_attr, u, batch):
        # x: [N, F_x], where N is the number of nodes.
        # edge_index: [2, E] with max entry N - 1 (row = source, col = target).
        # edge_attr: [E, F_e]
        # u: [B, F_u]
        # batch: [N] with max entry B - 1.
        row, col = edge_index
        out = torch.cat([x[col], edge_attr], dim=1)
        out = self.node_mlp_1(out)
        # aggregate incoming messages at each node: [N, hidden]
        out = scatter_mean(out, row, dim_size=x.size(0))
        out = torch.cat([x, out, u[batch]], dim=1)
        return self.node_mlp_2(out)


if __name__ == "__main__":
    torch.manual_seed(0)
    model = NodeModel(f_x=4, f_e=3, f_u=2, hidden=8)
    x = torch.randn(6, 4)
    edge_index = torch.tensor([[0, 0, 1, 2, 3, 4, 5, 5],
                               [1, 2, 2, 0, 4, 5, 3, 4]])
    edge_attr = torch.randn(8, 3)
    u = torch.randn(2, 2)
    batch = torch.tensor([0, 0, 0, 1, 1, 1])
    with torch.no_grad():
        got = model(x, edge_index, edge_attr, u, batch)
        ref = []
        for i in range(6):
            msgs = [model.node_mlp_1(torch.cat([x[s], edge_attr[e]]))
                    for e, (s, t) in enumerate(edge_index.t().tolist()) if t == i]
            agg = torch.stack(msgs).mean(0) if msgs else torch.zeros(8)
            ref.append(model.node_mlp_2(torch.cat([x[i], agg, u[batch[i]]])))
        ref = torch.stack(ref)
    print("node update max |diff| vs incoming-edge reference:", (got - ref).abs().max().item())
