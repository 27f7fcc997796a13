import torch
import torch.nn as nn


def radius_graph(pos, radius):
    # pos: [N, 3] -> edge_index: [2, E], edge_weight: [E]
    dist = torch.cdist(pos, pos)  # [N, N]
    mask = (dist < radius) & ~torch.eye(pos.size(0), dtype=torch.bool)
    src, dst = mask.nonzero(as_tuple=True)
    edge_weight = torch.exp(-dist[src, dst] ** 2)
    return torch.stack([src, dst]), edge_weight


class WeightedMeanConv(nn.Module):
    def __init__(self, in_dim, out_dim):
        super().__init__()
        self.lin = nn.Linear(in_dim, out_dim)

    def forward(self, x, edge_index, edge_weight):
        # x: [N, D], edge_index: [2, E], edge_weight: [E]
        src, dst = edge_index
        msg = x[src] * edge_weight.unsqueeze(-1)  # [E, D]
        out = torch.zeros_like(x)  # [N, D]
        out.index_add_(0, dst, msg)
        wsum = x.new_zeros(x.size(0))  # [N]
        wsum.index_add_(0, dst, edge_weight)
        return self.lin(out / wsum.clamp(min=1e-9).unsqueeze(-1))


if __name__ == "__main__":
    torch.manual_seed(0)
    pos = torch.rand(7, 3)  # [7, 3]
    feats = torch.randn(7, 5)  # [7, 5]
    edge_index, edge_weight = radius_graph(pos, radius=0.8)
    conv = WeightedMeanConv(5, 4)
    got = conv(feats, edge_index, edge_weight)
    N, D = feats.shape
    agg = [[0.0] * D for _ in range(N)]
    ws = [0.0] * N
    for e in range(edge_index.size(1)):
        s_, d_ = edge_index[0, e].item(), edge_index[1, e].item()
        w = edge_weight[e].item()
        ws[d_] += w
        for k in range(D):
            agg[d_][k] += w * feats[s_, k].item()
    mean = torch.tensor([[a / max(ws[n], 1e-9) for a in agg[n]] for n in range(N)])
    assert torch.allclose(got, conv.lin(mean), atol=1e-5)
    print("ok")
