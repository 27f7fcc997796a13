import math

import torch
import torch.nn as nn


def projection_scores(x, weight):
    # x: [N, F] (or [N] for scalar node attributes), weight: [1, F] -> scores [N]
    x = x.view(-1, 1) if x.dim() == 1 else x
    return torch.tanh((x * weight).sum(dim=-1) / weight.norm(p=2))


class TopKNodeSelect(nn.Module):
    def __init__(self, in_channels, ratio=0.5):
        super().__init__()
        self.ratio = ratio
        self.weight = nn.Parameter(torch.randn(1, in_channels))  # [1, F]

    def forward(self, x):
        # x: [N, F] node features; scalar node attributes arrive as [N]
        x = x.view(-1, 1) if x.dim() == 1 else x
        score = projection_scores(x, self.weight)  # [N]
        k = math.ceil(self.ratio * x.size(0))
        perm = score.topk(k).indices  # [k]
        x_sel = x.gather(0, perm.view(-1, 1).expand(-1, x.size(-1)))  # [k, F]
        return x_sel * score[perm].view(-1, 1), perm


if __name__ == "__main__":
    torch.manual_seed(0)
    node_degree = torch.randint(1, 6, (10,)).float()  # one scalar attribute per node: [10]
    pool = TopKNodeSelect(in_channels=1, ratio=0.4)
    with torch.no_grad():
        pooled, kept = pool(node_degree)
        w = pool.weight[0, 0].item()
    scores = [math.tanh(v * w / abs(w)) for v in node_degree.tolist()]
    assert len(kept) == 4
    for row, n in enumerate(kept.tolist()):
        assert abs(pooled[row, 0].item() - node_degree[n].item() * scores[n]) < 1e-5
    assert sorted(scores, reverse=True)[3] <= min(scores[n] for n in kept.tolist()) + 1e-7
    print("ok")
