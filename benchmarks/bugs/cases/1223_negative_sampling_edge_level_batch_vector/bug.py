import torch


def batched_negative_sampling(edge_index, batch, num_neg_per_graph=4, seed=0):
    g = torch.Generator().manual_seed(seed)
    counts = torch.bincount(batch)
    offsets = torch.cat([counts.new_zeros(1), counts.cumsum(0)[:-1]])
    edge_graph = batch[edge_index[0]]
    negatives = []
    for graph_id in range(counts.numel()):
        n = int(counts[graph_id])
        existing = edge_index[:, edge_graph == graph_id] - offsets[graph_id]
        taken = set(map(tuple, existing.t().tolist()))
        while len([p for p in negatives if p[2] == graph_id]) < num_neg_per_graph:
            i, j = torch.randint(0, n, (2,), generator=g).tolist()
            if i != j and (i, j) not in taken:
                negatives.append((i + int(offsets[graph_id]), j + int(offsets[graph_id]), graph_id))
    return torch.tensor([[a for a, _, _ in negatives], [b for _, b, _ in negatives]])


def collate(graphs):
    edges, batch, shift = [], [], 0
    for gid, (num_nodes, e) in enumerate(graphs):
        edges.append(e + shift)
        batch.append(torch.full((num_nodes,), gid))
        shift += num_nodes
    return torch.cat(edges, dim=1), torch.cat(batch)


def training_step(graphs):
    edge_index, node_batch = collate(graphs)
    batch = node_batch[edge_index[0]]
    neg = batched_negative_sampling(edge_index, batch)
    return edge_index.shape[1], neg.shape[1]


if __name__ == "__main__":
    g1 = (12, torch.tensor([[7, 7, 8, 8, 9, 10, 11, 0, 2, 3, 4, 5], [0, 2, 4, 5, 1, 3, 6, 1, 4, 6, 8, 9]]))
    g2 = (19, torch.tensor([[4, 4, 5, 5, 6, 7, 8, 10, 11], [0, 3, 2, 10, 1, 9, 12, 14, 18]]))
    print(training_step([g1, g2]))
