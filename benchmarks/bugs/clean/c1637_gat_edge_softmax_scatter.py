"""Multi-head graph attention with an edge softmax built from scatter_reduce / index_add_."""
import torch
import torch.nn as nn
import torch.nn.functional as F


def edge_softmax(scores, dst, num_nodes):
    # scores: [E, H]   dst: [E]  ->  [E, H], normalised over the incoming edges of every node
    index = dst.unsqueeze(-1).expand_as(scores)  # [E, H]
    node_max = scores.new_full((num_nodes, scores.size(1)), float("-inf"))
    node_max = node_max.scatter_reduce(0, index, scores, reduce="amax", include_self=True)
    exp = (scores - node_max.gather(0, index)).exp()  # [E, H]
    denom = torch.zeros_like(node_max).scatter_add_(0, index, exp)  # [N, H]
    return exp / denom.index_select(0, dst)


class GATLayer(nn.Module):
    def __init__(self, in_dim, out_dim, heads):
        super().__init__()
        self.heads, self.out_dim = heads, out_dim
        self.proj = nn.Linear(in_dim, heads * out_dim, bias=False)
        self.att_src = nn.Parameter(torch.randn(heads, out_dim) * 0.1)
        self.att_dst = nn.Parameter(torch.randn(heads, out_dim) * 0.1)

    def forward(self, x, edge_index):
        # x: [N, in_dim]   edge_index: [2, E] (row 0 = source, row 1 = target)
        src, dst = edge_index
        n = x.size(0)
        h = self.proj(x).view(n, self.heads, self.out_dim)  # [N, H, D]
        a_src = (h * self.att_src).sum(-1)  # [N, H]
        a_dst = (h * self.att_dst).sum(-1)  # [N, H]
        scores = F.leaky_relu(a_src[src] + a_dst[dst], 0.2)  # [E, H]
        alpha = edge_softmax(scores, dst, n)  # [E, H]
        msg = h.index_select(0, src) * alpha.unsqueeze(-1)  # [E, H, D]
        out = torch.zeros_like(h).index_add_(0, dst, msg)  # [N, H, D]
        return out.reshape(n, self.heads * self.out_dim)


def graph_readout(node_feats, batch, num_graphs):
    # node_feats: [N, F]   batch: [N] graph of every node  ->  [G, F] mean over nodes
    sums = node_feats.new_zeros(num_graphs, node_feats.size(1)).index_add_(0, batch, node_feats)
    counts = torch.bincount(batch, minlength=num_graphs).clamp(min=1).unsqueeze(1)
    return sums / counts


if __name__ == "__main__":
    torch.manual_seed(0)
    n, e, heads = 9, 30, 3
    x = torch.randn(n, 5)
    edge_index = torch.randint(0, n, (2, e))
    edge_index[1, :n] = torch.arange(n)  # every node receives at least one edge
    layer = GATLayer(5, 4, heads)
    out = layer(x, edge_index)

    with torch.no_grad():
        h = layer.proj(x).view(n, heads, 4)
        ref = torch.zeros(n, heads, 4)
        for v in range(n):
            for k in range(heads):
                incoming = [j for j in range(e) if edge_index[1, j] == v]
                s = torch.stack([F.leaky_relu((h[edge_index[0, j], k] * layer.att_src[k]).sum()
                                              + (h[v, k] * layer.att_dst[k]).sum(), 0.2) for j in incoming])
                w = torch.softmax(s, 0)
                for wj, j in zip(w, incoming):
                    ref[v, k] += wj * h[edge_index[0, j], k]
    assert torch.allclose(out, ref.reshape(n, -1), atol=1e-5)

    batch = torch.tensor([0, 0, 0, 1, 1, 2, 2, 2, 2])
    pooled = graph_readout(out, batch, 3)
    for gidx in range(3):
        assert torch.allclose(pooled[gidx], out[batch == gidx].mean(0), atol=1e-6)
    print("ok")
