import torch


def propagate(edge_index, x, size, flow="source_to_target"):
    """Sum-aggregate node features over a bipartite assignment graph.

    Args:
        edge_index: LongTensor [2, E]; row 0 indexes the first node set, row 1 the second.
        x: node features [N_send, F] of the side that sends messages.
        size: (N, M) number of nodes in the first and in the second node set.
        flow: "source_to_target" sends edge_index[0] -> edge_index[1],
            "target_to_source" sends edge_index[1] -> edge_index[0].
    Returns:
        Tensor [N_recv, F]: aggregated messages for every node of the receiving set.
    """
    i, j = (1, 0) if flow == "source_to_target" else (0, 1)
    x_j = x.index_select(0, edge_index[j])
    out = x_j.new_zeros(size[1], x_j.size(-1))
    out.index_add_(0, edge_index[i], x_j)
    return out


def mesh_pool(vertex_feats, assignment, num_clusters):
    """Pool fine-mesh vertex features onto coarse clusters.

    Args:
        vertex_feats: [M, F] features of the M fine vertices.
        assignment: LongTensor [2, E] of (cluster, vertex) pairs.
        num_clusters: N, number of coarse clusters.
    Returns:
        [N, F] summed features per cluster.
    """
    size = (num_clusters, vertex_feats.size(0))
    return propagate(assignment, vertex_feats, size, flow="target_to_source")


if __name__ == "__main__":
    torch.manual_seed(0)
    num_vertices, num_clusters, feat = 100, 10, 3
    vertex_feats = torch.randn(num_vertices, feat)
    vertex = torch.arange(num_vertices)
    cluster = torch.randint(0, num_clusters, (num_vertices,))
    assignment = torch.stack([cluster, vertex])

    pooled = mesh_pool(vertex_feats, assignment, num_clusters)
    readout = pooled.mean(0)

    ref = torch.zeros(num_clusters, feat)
    for e in range(assignment.size(1)):
        c, v = assignment[0, e].item(), assignment[1, e].item()
        ref[c] += vertex_feats[v]
    ref_readout = ref.mean(0)
    print("pooled rows:", pooled.size(0), "expected:", num_clusters)
    print("max |first rows - reference|:", (pooled[:num_clusters] - ref).abs().max().item())
    print("max |graph readout - reference|:", (readout - ref_readout).abs().max().item())
