"""Graph-level readout for a batch of molecular graphs (PyG-style global pooling written in plain torch).

Nodes of all graphs are concatenated; `batch` maps every node to its graph.
"""
import torch


def global_add_pool(x, batch, num_graphs):
    # x: [num_nodes, F], batch: [num_nodes] -> [num_graphs, F]
    out = x.new_zeros(num_graphs, x.size(1))
    return out.index_add_(0, batch, x)


def global_mean_pool(x, batch, num_graphs):
    summed = global_add_pool(x, batch, num_graphs)  # [num_graphs, F]
    counts = torch.bincount(batch, minlength=num_graphs).clamp(min=1)  # [num_graphs]
    return summed / counts.unsqueeze(-1).to(x.dtype)


def global_max_pool(x, batch, num_graphs):
    # x: [num_nodes, F] -> [num_graphs, F]
    index = batch.unsqueeze(-1).expand_as(x)  # [num_nodes, F]
    out = x.new_full((num_graphs, x.size(1)), float("-inf"))
    return out.scatter_reduce(0, index, x, reduce="amax", include_self=False)


def broadcast_to_nodes(graph_feat, batch):
    # graph_feat: [num_graphs, F] -> [num_nodes, F]
    index = batch.unsqueeze(-1).expand(-1, graph_feat.size(1))  # [num_nodes, F]
    return torch.gather(graph_feat, 0, index)


def readout(x, batch, num_graphs):
    # centre node features on their graph mean, then pool
    centred = x - broadcast_to_nodes(global_mean_pool(x, batch, num_graphs), batch)
    return torch.cat(
        [global_add_pool(centred, batch, num_graphs), global_max_pool(centred, batch, num_graphs)], dim=-1
    )


if __name__ == "__main__":
    torch.manual_seed(0)
    num_atoms_per_graph = [5, 3, 7, 1]
    num_graphs, feat_dim = len(num_atoms_per_graph), 6
    batch = torch.repeat_interleave(torch.arange(num_graphs), torch.tensor(num_atoms_per_graph))
    x = torch.randn(int(batch.numel()), feat_dim)

    out = readout(x, batch, num_graphs)  # [num_graphs, 2 * F]

    assert out.shape == (num_graphs, 2 * feat_dim)
    start = 0
    for g, n in enumerate(num_atoms_per_graph):
        rows = [x[start + i] for i in range(n)]
        mean = sum(rows) / n
        centred = [r - mean for r in rows]
        ref_sum = sum(centred)
        ref_max = torch.stack(centred).max(dim=0).values
        assert torch.allclose(out[g, :feat_dim], ref_sum, atol=1e-5)
        assert torch.allclose(out[g, feat_dim:], ref_max, atol=1e-6)
        start += n
    print("ok")
