import torch
import torch.nn as nn


class MeanAggTopKPool(nn.Module):
    """Mean message passing followed by per-graph top-k node selection.

    Args:
        dim: node feature width.
        k: nodes kept per graph.
    """

    def __init__(self, dim, k):
        super().__init__()
        self.k = k
        self.msg = nn.Linear(dim, dim)
        self.score = nn.Linear(dim, 1)

    def forward(self, x, edge_index, num_graphs, nodes_per_graph):
        # x: [N, D], edge_index: [2, E] (src, dst), nodes laid out graph by graph
        src, dst = edge_index
        messages = self.msg(x).index_select(0, src)                       # [E, D]
        agg = torch.zeros_like(x)                                         # [N, D]
        agg.scatter_add_(0, dst.unsqueeze(1).expand(-1, x.size(1)), messages)
        deg = torch.zeros(x.size(0), dtype=x.dtype).index_add_(0, dst, torch.ones_like(dst, dtype=x.dtype))
        h = x + agg / deg.clamp(min=1).unsqueeze(1)                       # [N, D]

        h = h.view(num_graphs, nodes_per_graph, -1)                       # [G, n, D]
        scores = self.score(h).squeeze(-1)                                # [G, n]
        top_scores, top_idx = scores.topk(self.k, dim=1)                  # [G, k]
        picked = h.gather(1, top_idx.unsqueeze(-1).expand(-1, -1, h.size(-1)))  # [G, k, D]
        return picked * torch.sigmoid(top_scores).unsqueeze(-1), top_idx


if __name__ == "__main__":
    torch.manual_seed(0)
    G, n, D, k = 3, 5, 8, 2
    x = torch.randn(G * n, D)
    edges = []
    for g in range(G):
        for _ in range(7):
            a, b = torch.randint(0, n, (2,)).tolist()
            edges.append((g * n + a, g * n + b))
    edge_index = torch.tensor(edges).t()
    pool = MeanAggTopKPool(D, k)
    with torch.no_grad():
        out, top_idx = pool(x, edge_index, G, n)
        m = pool.msg(x)
        h = x.clone()
        for v in range(G * n):
            inc = [m[s] for s, d in edges if d == v]
            if inc:
                h[v] = x[v] + torch.stack(inc).mean(0)
        for g in range(G):
            sc = [pool.score(h[g * n + i]).item() for i in range(n)]
            order = sorted(range(n), key=lambda i: -sc[i])[:k]
            assert order == top_idx[g].tolist()
            for j, i in enumerate(order):
                ref = h[g * n + i] * torch.sigmoid(torch.tensor(sc[i]))
                assert torch.allclose(out[g, j], ref, atol=1e-5)
    print("ok")
