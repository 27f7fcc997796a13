import torch
import torch.nn as nn


class FeatureExtension(nn.Module):
    def __init__(self, max_degree=16):
        super().__init__()
        self.max_degree = max_degree

    def node_degrees(self, edge_index, num_nodes):
        deg = torch.zeros(num_nodes, dtype=torch.long)
        deg.scatter_add_(0, edge_index[1], torch.ones_like(edge_index[1]))
        return deg

    def forward(self, x, edge_index):
        num_nodes = x.size(0)
        deg = self.node_degrees(edge_index, num_nodes)
        node_ids = torch.arange(num_nodes, dtype=torch.long)
        nodes_degree = deg.gather(0, node_ids).clamp(max=self.max_degree)
        return torch.cat([x, nodes_degree.unsqueeze(-1).float() / self.max_degree], dim=-1)


if __name__ == "__main__":
    torch.manual_seed(0)
    x = torch.randn(6, 4)
    edge_index = torch.tensor([[1, 2, 3, 4, 5, 0, 0, 2, 3, 5],
                               [0, 0, 0, 0, 0, 1, 2, 3, 4, 4]])
    layer = FeatureExtension(max_degree=16)
    out = layer(x, edge_index)
    ref = [sum(1 for d in edge_index[1].tolist() if d == i) for i in range(6)]
    assert (out[:, -1] * 16).round().long().tolist() == ref == [5, 1, 1, 1, 2, 0]
    assert torch.equal(out[:, :4], x)
    print("ok")
