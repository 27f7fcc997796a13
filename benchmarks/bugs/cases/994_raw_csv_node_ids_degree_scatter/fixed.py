import csv
import io

import torch

NODES_CSV = """inst,size_x,size_y,n_term
1789,0.288,0.576,3
1788,0.480,0.576,4
1781,0.288,0.576,3
1780,0.288,0.576,2
1779,0.480,0.576,4
2881,0.288,0.576,3
7345,0.480,0.576,5
"""
EDGES_CSV = """src,dst
1788,1789
1780,1779
1779,1781
7345,2881
1789,1788
2881,1780
"""


def load_graph():
    nodes = list(csv.DictReader(io.StringIO(NODES_CSV)))
    feats = [[float(r["size_x"]), float(r["size_y"]), float(r["n_term"])] for r in nodes]
    x = torch.tensor(feats)                                    # [N, F]
    node_id = {int(r["inst"]): i for i, r in enumerate(nodes)}
    edges = list(csv.DictReader(io.StringIO(EDGES_CSV)))
    edge_index = torch.tensor([[node_id[int(e["src"])] for e in edges],
                               [node_id[int(e["dst"])] for e in edges]])  # [2, E]
    return x, edge_index


def mean_aggregate(x, edge_index):
    # x: [N, F], edge_index: [2, E]  (row = target, col = source)
    row, col = edge_index
    n = x.size(0)
    deg = torch.zeros(n)                                        # [N]
    deg.scatter_add_(0, row, torch.ones(row.numel()))
    msg = x.index_select(0, col)                                # [E, F]
    out = torch.zeros_like(x)                                   # [N, F]
    out.index_add_(0, row, msg)
    return out / deg.clamp(min=1).unsqueeze(-1)


if __name__ == "__main__":
    x, edge_index = load_graph()
    h = mean_aggregate(x, edge_index)
    n = x.size(0)
    ref = [[0.0] * x.size(1) for _ in range(n)]
    cnt = [0] * n
    for e in range(edge_index.size(1)):
        r, c = int(edge_index[0, e]), int(edge_index[1, e])
        cnt[r] += 1
        for f in range(x.size(1)):
            ref[r][f] += float(x[c, f])
    for i in range(n):
        for f in range(x.size(1)):
            expected = ref[i][f] / max(cnt[i], 1)
            assert abs(float(h[i, f]) - expected) < 1e-5
    print("ok")
