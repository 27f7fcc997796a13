import torch
from torch.utils.data import DataLoader, Dataset


class ContactGraphs(Dataset):
    """Graphs read from edge lists whose node ids come from the source files."""

    def __init__(self, graphs, feat_dim=4):
        self.graphs = graphs
        self.feat_dim = feat_dim

    def __len__(self):
        return len(self.graphs)

    def __getitem__(self, i):
        nodes, edges = self.graphs[i]
        x = torch.randn(len(nodes), self.feat_dim)
        edge_index = torch.tensor(edges, dtype=torch.long).T
        return x, edge_index


def collate_graphs(batch):
    """Concatenate graphs into one disjoint graph.

    Returns:
        x (`torch.FloatTensor` of shape `(total_nodes, feat_dim)`)
        edge_index (`torch.LongTensor` of shape `(2, total_edges)`), offset per graph
        graph_id (`torch.LongTensor` of shape `(total_nodes,)`)
    """
    xs, eis, gid, offset = [], [], [], 0
    for g, (x, ei) in enumerate(batch):
        xs.append(x)
        eis.append(ei + offset)
        gid.append(torch.full((x.shape[0],), g))
        offset += x.shape[0]
    return torch.cat(xs), torch.cat(eis, 1), torch.cat(gid)


def mean_aggregate(x, edge_index):
    """Mean of incoming neighbour features.

    Args:
        x (`torch.FloatTensor` of shape `(num_nodes, feat_dim)`)
        edge_index (`torch.LongTensor` of shape `(2, num_edges)`): rows are (source, target)

    Returns:
        `torch.FloatTensor` of shape `(num_nodes, feat_dim)`
    """
    src, dst = edge_index
    msg = x.index_select(0, src)
    out = torch.zeros_like(x).index_add_(0, dst, msg)
    deg = torch.zeros(x.shape[0]).index_add_(0, dst, torch.ones(dst.shape[0]))
    return out / deg.clamp_min(1).unsqueeze(-1)


if __name__ == "__main__":
    torch.manual_seed(0)
    raw = [([10, 11, 12, 14], [(10, 11), (11, 12), (12, 14), (14, 10)]),
           ([3, 5, 6], [(3, 5), (5, 6), (6, 3)])]
    loader = DataLoader(ContactGraphs(raw), batch_size=2, collate_fn=collate_graphs)
    for x, edge_index, graph_id in loader:
        h = mean_aggregate(x, edge_index)
        print(h.shape, graph_id.tolist())
