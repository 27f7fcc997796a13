import torch
import torch.nn as nn


def aggregate(messages, index, dim_size):
    out = messages.new_zeros(dim_size, messages.size(-1))
    return out.index_add_(0, index, messages)


class HypergraphConv(nn.Module):
    def __init__(self, cfg):
        super().__init__()
        self.lin = nn.Linear(cfg["in_channels"], cfg["out_channels"], bias=False)

    def forward(self, x, hyperedge_index):
        node_idx, edge_idx = hyperedge_index
        num_nodes = x.size(0)
        num_edges = int(edge_idx.max()) + 1
        x = self.lin(x)

        node_deg = aggregate(torch.ones_like(node_idx, dtype=x.dtype).unsqueeze(-1), node_idx, num_nodes)
        edge_deg = aggregate(torch.ones_like(edge_idx, dtype=x.dtype).unsqueeze(-1), edge_idx, num_edges)

        # nodes -> hyperedges
        edge_feat = aggregate(x[node_idx], edge_idx, dim_size=num_edges)
        edge_feat = edge_feat / edge_deg.clamp(min=1)
        # hyperedges -> nodes
        out = aggregate(edge_feat[edge_idx], node_idx, dim_size=num_nodes)
        return out / node_deg.clamp(min=1)


def build_batch(cfg, generator):
    x = torch.randn(cfg["num_nodes"], cfg["in_channels"], generator=generator)
    pairs = []
    for e in range(cfg["num_hyperedges"]):
        members = torch.randperm(cfg["num_nodes"], generator=generator)[: cfg["edge_size"]]
        pairs += [(int(v), e) for v in members]
    return x, torch.tensor(pairs).t()


if __name__ == "__main__":
    cfg = {"in_channels": 6, "out_channels": 4, "num_nodes": 5, "num_hyperedges": 9, "edge_size": 3}
    g = torch.Generator().manual_seed(0)
    x, hyperedge_index = build_batch(cfg, g)
    conv = HypergraphConv(cfg)
    with torch.no_grad():
        out = conv(x, hyperedge_index)

        # reference: explicit loops over incidences
        h = conv.lin(x)
        pairs = hyperedge_index.t().tolist()
        E = cfg["num_hyperedges"]
        edge_sum = [torch.zeros(h.size(1)) for _ in range(E)]
        edge_cnt = [0] * E
        for v, e in pairs:
            edge_sum[e] += h[v]
            edge_cnt[e] += 1
        ref = torch.zeros(cfg["num_nodes"], h.size(1))
        cnt = [0] * cfg["num_nodes"]
        for v, e in pairs:
            ref[v] += edge_sum[e] / max(edge_cnt[e], 1)
            cnt[v] += 1
        for v in range(cfg["num_nodes"]):
            ref[v] /= max(cnt[v], 1)
    assert torch.allclose(out, ref, atol=1e-5)
    print("ok")
