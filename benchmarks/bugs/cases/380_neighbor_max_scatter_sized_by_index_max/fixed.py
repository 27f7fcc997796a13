import torch
import torch.nn as nn


class EdgeContrastPool(nn.Module):
    """Scores nodes by how much they differ from their strongest neighbour (SAGPool-style selection)."""

    def __init__(self, channels, ratio=0.5):
        super().__init__()
        self.ratio = ratio
        self.score = nn.Linear(channels, 1)

    def forward(self, x, edge_index):
        src, dst = edge_index
        diff = x[src] - x[dst]
        index = src.unsqueeze(-1).expand_as(diff)
        out = torch.zeros(x.shape[0], x.shape[1])
        neigh_max = out.scatter_reduce(0, index, diff, reduce="amax", include_self=False)
        contrast = x - neigh_max
        score = self.score(contrast).squeeze(-1).tanh()
        k = max(1, int(self.ratio * x.shape[0]))
        perm = score.topk(k).indices
        return x[perm] * score[perm].unsqueeze(-1), perm


if __name__ == "__main__":
    torch.manual_seed(0)
    x = torch.randn(9, 16)
    edge_index = torch.tensor([[0, 1, 1, 2, 3, 4, 5, 6, 2, 0],
                               [1, 0, 2, 1, 4, 3, 6, 5, 0, 2]])
    pool = EdgeContrastPool(16, ratio=0.5)
    with torch.no_grad():
        pooled, perm = pool(x, edge_index)

        X = x.tolist()
        ref_max = [[0.0] * 16 for _ in range(9)]
        seen = [False] * 9
        for s, d in zip(*edge_index.tolist()):
            diff = [a - b for a, b in zip(X[s], X[d])]
            ref_max[s] = diff if not seen[s] else [max(a, b) for a, b in zip(ref_max[s], diff)]
            seen[s] = True
        contrast = torch.tensor([[a - b for a, b in zip(X[i], ref_max[i])] for i in range(9)])
        score = pool.score(contrast).squeeze(-1).tanh()
        order = sorted(range(9), key=lambda i: -score[i].item())[:4]
    assert perm.tolist() == order
    for j, i in enumerate(order):
        assert torch.allclose(pooled[j], x[i] * score[i], atol=1e-6)
    print("ok")
