import torch
import torch.nn as nn


def edges_to_csr(edge_index, num_src):
    """Turn a relation's edge list into CSR form.

    Args:
        edge_index: LongTensor of shape (2, E), row 0 the source nodes,
            row 1 the destination nodes.
        num_src: number of nodes of the source type.

    Returns:
        rowptr: LongTensor of shape (num_src + 1,)
        col: LongTensor of shape (E,), destinations sorted by source
        rowcount: LongTensor of shape (num_src,), out-degree of each source
    """
    perm = torch.argsort(edge_index[0] * (edge_index[1].max() + 1) + edge_index[1])
    row, col = edge_index[0][perm], edge_index[1][perm]
    rowcount = torch.bincount(row, minlength=num_src)
    rowptr = torch.zeros(num_src + 1, dtype=torch.long)
    rowptr[1:] = torch.cumsum(rowcount, dim=0)
    return rowptr, col, rowcount


def sample_neighbors(rowptr, col, rowcount, subset, num_neighbors, dummy_idx):
    """Draw `num_neighbors` random out-neighbours for every node in `subset`.

    Args:
        rowptr: LongTensor of shape (num_src + 1,)
        col: LongTensor of shape (E,)
        rowcount: LongTensor of shape (num_src,)
        subset: LongTensor of shape (S,), source node ids (dummy_idx allowed)
        num_neighbors: neighbours drawn per node
        dummy_idx: id used for walks that cannot continue

    Returns:
        LongTensor of shape (S, num_neighbors) with destination ids, or
        dummy_idx where the source node has no out-edge.
    """
    subset_c = subset.clamp(max=rowcount.numel() - 1)
    rand = torch.rand((subset.size(0), num_neighbors))
    rand *= rowcount[subset_c].to(rand.dtype).view(-1, 1)
    rand = rand.to(torch.long) + rowptr[subset_c].view(-1, 1)
    rand = rand.clamp(max=col.numel() - 1)  # the last source node may have no out-edge

    out = col[rand]
    out[(subset >= dummy_idx) | (rowcount[subset_c] == 0)] = dummy_idx
    return out


class MetaPathWalker(nn.Module):
    """Positive random walks along a metapath of a heterogeneous graph.

    Args:
        edge_index_dict: maps (src_type, rel, dst_type) to a LongTensor of
            shape (2, E_rel).
        num_nodes_dict: number of nodes of every node type.
        metapath: list of relation keys, the walk cycles through it.
        walk_length: number of hops per walk.
    """

    def __init__(self, edge_index_dict, num_nodes_dict, metapath, walk_length):
        super().__init__()
        self.metapath = metapath
        self.walk_length = walk_length
        self.csr = {}
        for key, edge_index in edge_index_dict.items():
            self.csr[key] = edges_to_csr(edge_index, num_nodes_dict[key[0]])
        self.dummy_idx = max(num_nodes_dict.values())

    def forward(self, start):
        """start: LongTensor of shape (S,) with nodes of the metapath's first type.

        Returns a LongTensor of shape (S, walk_length + 1), one walk per row.
        """
        walks = [start]
        batch = start
        for i in range(self.walk_length):
            key = self.metapath[i % len(self.metapath)]
            rowptr, col, rowcount = self.csr[key]
            batch = sample_neighbors(rowptr, col, rowcount, batch, 1, self.dummy_idx).view(-1)
            walks.append(batch)
        return torch.stack(walks, dim=-1)


if __name__ == "__main__":
    torch.manual_seed(0)
    # Authors write papers; some papers (preprints) have no corresponding author,
    # here the last paper, 3, which author 0 wrote.
    writes = torch.tensor([[0, 1, 1, 2, 2], [3, 0, 1, 1, 2]])
    corresponding = torch.tensor([[0, 1, 2], [1, 2, 2]])
    edge_index_dict = {
        ("author", "writes", "paper"): writes,
        ("paper", "corresponding", "author"): corresponding,
    }
    num_nodes_dict = {"author": 3, "paper": 4}
    metapath = [("author", "writes", "paper"), ("paper", "corresponding", "author")]
    walker = MetaPathWalker(edge_index_dict, num_nodes_dict, metapath, walk_length=4)
    walks = walker(torch.arange(3).repeat(2))

    # reference: every hop must follow an existing edge, or go to the dummy node
    # when the current node has no out-edge of that relation (or is the dummy)
    adjacency = {key: {} for key in edge_index_dict}
    for key, edge_index in edge_index_dict.items():
        for s, d in edge_index.t().tolist():
            adjacency[key].setdefault(s, set()).add(d)
    for walk in walks.tolist():
        for i in range(len(walk) - 1):
            key = metapath[i % len(metapath)]
            src_node, dst_node = walk[i], walk[i + 1]
            neighbours = adjacency[key].get(src_node, set())
            if src_node == walker.dummy_idx or not neighbours:
                assert dst_node == walker.dummy_idx, (walk, i)
            else:
                assert dst_node in neighbours, (walk, i)
    assert walks.shape == (6, 5)
    print("ok")
