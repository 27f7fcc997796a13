import torch
import torch.nn as nn
import torch.nn.functional as F


def edge_softmax(scores, dst, num_nodes):
    # scores: [E, H], dst: [E] -> weights [E, H], normalised over the incoming edges of every node
    index = dst.unsqueeze(1).expand_as(scores)  # [E, H]
    node_max = torch.full((num_nodes, scores.size(1)), float("-inf")).scatter_reduce(
        0, index, scores, reduce="amax", include_self=True)  # [N, H]
    exp = (scores - node_max.gather(0, index)).exp()  # [E, H]
    denom = torch.zeros(num_nodes, scores.size(1)).scatter_add_(0, index, exp)  # [N, H]
    return exp / denom.gather(0, index)  # [E, H]


class GATLayer(nn.Module):
    def __init__(self, in_dim, out_dim, heads):
        super().__init__()
        self.heads, self.out_dim = heads, out_dim
        self.lin = nn.Linear(in_dim, heads * out_dim, bias=False)
        self.att_src = nn.Parameter(torch.randn(heads, out_dim) * 0.1)
        self.att_dst = nn.Parameter(torch.randn(heads, out_dim) * 0.1)

    def forward(self, x, edge_index):
        # x: [N, F], edge_index: [2, E] rows (source, target)
        n = x.size(0)
        src, dst = edge_index
        h = self.lin(x).view(n, self.heads, self.out_dim)  # [N, H, D]
        a_src = (h * self.att_src).sum(-1)  # [N, H]
        a_dst = (h * self.att_dst).sum(-1)  # [N, H]
        scores = F.leaky_relu(a_src.index_select(0, src) + a_dst.index_select(0, dst), 0.2)  # [E, H]
        alpha = edge_softmax(scores, dst, n)  # [E, H]
        msg = alpha.unsqueeze(-1) * h.index_select(0, src)  # [E, H, D]
        out = torch.zeros_like(h).index_add_(0, dst, msg)  # [N, H, D]
        return out.mean(dim=1)  # [N, D]


def topk_per_graph(score, batch, ratio):
    # score: [N], batch: [N] sorted graph ids -> kept node ids [M] (highest scores first within each graph)
    num_graphs = int(batch.max()) + 1
    counts = torch.bincount(batch, minlength=num_graphs)  # [G]
    starts = torch.cumsum(counts, 0) - counts  # [G]
    max_n = int(counts.max())
    dense = torch.full((num_graphs, max_n), float("-inf"))  # [G, max_n]
    slot = torch.arange(batch.numel()) - starts[batch]  # [N] position of every node inside its graph
    dense[batch, slot] = score
    order = dense.argsort(dim=1, descending=True)  # [G, max_n]
    k = torch.ceil(ratio * counts.float()).long()  # [G]
    keep = torch.arange(max_n).unsqueeze(0) < k.unsqueeze(1)  # [G, max_n]
    node_ids = (order + starts.unsqueeze(1))[keep]  # [M]
    return node_ids


def filter_edges(edge_index, kept, num_nodes):
    # edge_index: [2, E], kept: [M] -> edges between kept nodes, renumbered to [0, M)
    remap = torch.full((num_nodes,), -1, dtype=torch.long)
    remap[kept] = torch.arange(kept.numel())
    src, dst = remap[edge_index[0]], remap[edge_index[1]]  # [E], [E]
    mask = (src >= 0) & (dst >= 0)
    return torch.stack([src[mask], dst[mask]])  # [2, E']


class AttentionReadout(nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.gate = nn.Linear(dim, 1)

    def forward(self, x, batch, num_graphs):
        # x: [N, D], batch: [N] -> [G, D]
        gate = edge_softmax(self.gate(x), batch, num_graphs)  # [N, 1] softmax over the nodes of each graph
        return torch.zeros(num_graphs, x.size(1)).index_add_(0, batch, gate * x)  # [G, D]


class GraphClassifier(nn.Module):
    def __init__(self, in_dim, hidden, num_classes, ratio=0.5):
        super().__init__()
        self.conv1 = GATLayer(in_dim, hidden, heads=2)
        self.conv2 = GATLayer(hidden, hidden, heads=2)
        self.score = nn.Linear(hidden, 1)
        self.readout = AttentionReadout(hidden)
        self.head = nn.Linear(hidden, num_classes)
        self.ratio = ratio

    def forward(self, x, edge_index, batch):
        num_graphs = int(batch.max()) + 1
        h = F.elu(self.conv1(x, edge_index))  # [N, hidden]
        s = self.score(h).squeeze(-1)  # [N]
        kept = topk_per_graph(s, batch, self.ratio)  # [M]
        h_pool = h[kept] * torch.tanh(s[kept]).unsqueeze(-1)  # [M, hidden]
        pooled_edges = filter_edges(edge_index, kept, x.size(0))  # [2, E']
        h2 = F.elu(self.conv2(h_pool, pooled_edges))  # [M, hidden]
        g = self.readout(h2, batch[kept], num_graphs)  # [G, hidden]
        return self.head(g), kept, pooled_edges  # [G, C]


def random_graphs(sizes, in_dim, seed):
    g = torch.Generator().manual_seed(seed)
    xs, edges, batch, offset = [], [], [], 0
    for gid, n in enumerate(sizes):
        xs.append(torch.randn(n, in_dim, generator=g))
        e = torch.randint(0, n, (2, 3 * n), generator=g)
        loops = torch.arange(n).repeat(2, 1)
        edges.append(torch.cat([e, loops], dim=1) + offset)
        batch.append(torch.full((n,), gid))
        offset += n
    return torch.cat(xs), torch.cat(edges, dim=1), torch.cat(batch)


if __name__ == "__main__":
    torch.manual_seed(0)
    x, edge_index, batch = random_graphs([7, 5, 9], in_dim=8, seed=0)  # x: [21, 8]
    model = GraphClassifier(8, 16, num_classes=3)
    with torch.no_grad():
        logits, kept, pooled_edges = model(x, edge_index, batch)

        def gat_ref(layer, feats, ei):
            n = feats.size(0)
            h = layer.lin(feats).view(n, layer.heads, layer.out_dim)
            out = torch.zeros_like(h)
            for i in range(n):
                inc = [e for e in range(ei.size(1)) if int(ei[1, e]) == i]
                if not inc:
                    continue
                for hd in range(layer.heads):
                    sc = torch.stack([F.leaky_relu((h[int(ei[0, e]), hd] * layer.att_src[hd]).sum()
                                                   + (h[i, hd] * layer.att_dst[hd]).sum(), 0.2) for e in inc])
                    a = sc.softmax(0)
                    out[i, hd] = sum(a[k] * h[int(ei[0, e]), hd] for k, e in enumerate(inc))
            return out.mean(1)

        h = F.elu(gat_ref(model.conv1, x, edge_index))
        assert torch.allclose(h, F.elu(model.conv1(x, edge_index)), atol=1e-5)
        s = model.score(h).squeeze(-1)
        ref_kept = []
        for gid in range(3):
            nodes = (batch == gid).nonzero().squeeze(1).tolist()
            nodes.sort(key=lambda i: -float(s[i]))
            ref_kept += nodes[: int(torch.ceil(torch.tensor(0.5 * len(nodes))))]
        assert kept.tolist() == ref_kept
        pos = {v: k for k, v in enumerate(ref_kept)}
        ref_edges = [(pos[a], pos[b]) for a, b in edge_index.t().tolist() if a in pos and b in pos]
        assert pooled_edges.t().tolist() == [list(e) for e in ref_edges]
        h_pool = h[ref_kept] * torch.tanh(s[ref_kept]).unsqueeze(-1)
        h2 = F.elu(gat_ref(model.conv2, h_pool, pooled_edges))
        g_ref = torch.zeros(3, 16)
        kb = batch[ref_kept]
        for gid in range(3):
            members = (kb == gid).nonzero().squeeze(1)
            w = model.readout.gate(h2[members]).squeeze(-1).softmax(0)
            g_ref[gid] = (w.unsqueeze(-1) * h2[members]).sum(0)
        assert torch.allclose(logits, model.head(g_ref), atol=1e-5)
    print("ok")
