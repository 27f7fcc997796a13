import torch
import torch.nn as nn


def scatter_mean(src, index, dim_size):
    """Mean of the rows of ``src`` grouped by ``index``.

    Args:
        src: edge messages, shape (num_edges, channels)
        index: destination node of each message, shape (num_edges,)
        dim_size: number of destination nodes
    Returns:
        (dim_size, channels); nodes without incoming messages get zeros.
    """
    out = src.new_zeros(dim_size, src.size(1))
    out.scatter_add_(0, index.unsqueeze(-1).expand_as(src), src)
    count = src.new_zeros(dim_size).index_add_(0, index, torch.ones_like(index, dtype=src.dtype))
    return out / count.clamp(min=1).unsqueeze(-1)


class SAGEConv(nn.Module):
    def __init__(self, in_channels, out_channels):
        super().__init__()
        self.lin_neigh = nn.Linear(in_channels, out_channels)
        self.lin_root = nn.Linear(in_channels, out_channels, bias=False)

    def forward(self, x, edge_index):
        # x: (num_nodes, in_channels); edge_index: (2, num_edges) as (source, target)
        src, dst = edge_index
        messages = x.index_select(0, src)
        aggr = scatter_mean(messages, dst, x.size(0))
        return self.lin_neigh(aggr) + self.lin_root(x)


def global_mean_pool(x, batch, num_graphs):
    return scatter_mean(x, batch, num_graphs)


class GraphEncoder(nn.Module):
    def __init__(self, in_channels, hidden):
        super().__init__()
        self.conv1 = SAGEConv(in_channels, hidden)
        self.conv2 = SAGEConv(hidden, hidden)

    def forward(self, x, edge_index, batch, num_graphs):
        h = torch.relu(self.conv1(x, edge_index))
        h = self.conv2(h, edge_index)
        graph_emb = global_mean_pool(h, batch, num_graphs)
        # broadcast each graph's readout back to its nodes (e.g. for a virtual-node residual)
        return h + graph_emb[batch], graph_emb


if __name__ == "__main__":
    torch.manual_seed(0)
    sizes = [5, 3, 6]
    batch = torch.cat([torch.full((n,), g) for g, n in enumerate(sizes)])
    offsets = torch.tensor([0, 5, 8])
    edges = [torch.randint(0, n, (2, 2 * n)) + offsets[g] for g, n in enumerate(sizes)]
    edge_index = torch.cat(edges, dim=1)
    x = torch.randn(batch.numel(), 4)
    model = GraphEncoder(4, 8)
    with torch.no_grad():
        node_out, graph_out = model(x, edge_index, batch, len(sizes))

        def ref_conv(conv, feats):
            rows = []
            for v in range(feats.size(0)):
                nbrs = [feats[s] for s, d in edge_index.t().tolist() if d == v]
                agg = torch.stack(nbrs).mean(0) if nbrs else torch.zeros(feats.size(1))
                rows.append(conv.lin_neigh(agg) + conv.lin_root(feats[v]))
            return torch.stack(rows)

        h = ref_conv(model.conv2, torch.relu(ref_conv(model.conv1, x)))
        ref_graph = torch.stack([h[batch == g].mean(0) for g in range(len(sizes))])
        ref_node = torch.stack([h[v] + ref_graph[batch[v]] for v in range(h.size(0))])
    assert torch.allclose(graph_out, ref_graph, atol=1e-5)
    assert torch.allclose(node_out, ref_node, atol=1e-5)
    print("ok")
