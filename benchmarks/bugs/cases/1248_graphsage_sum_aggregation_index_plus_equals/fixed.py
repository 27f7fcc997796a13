import torch
import torch.nn as nn


class SumSAGELayer(nn.Module):
    def __init__(self, in_dim, out_dim):
        super().__init__()
        self.msg = nn.Linear(in_dim, out_dim)
        self.root = nn.Linear(in_dim, out_dim)

    def forward(self, x, edge_index):
        # x: [N, F] node features; edge_index: [2, E] (src, dst) pairs
        src, dst = edge_index
        messages = self.msg(x[src])  # [E, H]
        agg = torch.zeros(x.size(0), messages.size(1))  # [N, H]
        agg.index_add_(0, dst, messages)  # sum of incoming messages per destination node
        return torch.relu(self.root(x) + agg)  # [N, H]


if __name__ == "__main__":
    torch.manual_seed(0)
    layer = SumSAGELayer(5, 8)
    x = torch.randn(4, 5)  # [N=4, F=5]
    # node 2 has three incoming edges, node 0 has two
    edge_index = torch.tensor([[0, 1, 3, 1, 2, 3], [2, 2, 2, 0, 1, 0]])  # [2, E=6]
    with torch.no_grad():
        out = layer(x, edge_index)
        for v in range(4):
            acc = torch.zeros(8)
            for e in range(edge_index.size(1)):
                if int(edge_index[1, e]) == v:
                    acc = acc + layer.msg(x[int(edge_index[0, e])])
            ref = torch.relu(layer.root(x[v]) + acc)
            assert torch.allclose(out[v], ref, atol=1e-5), v
    print("ok")
