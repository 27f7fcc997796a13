import numpy as np
import torch
from torch import nn


def convert_to_single_emb(x, offset: int = 512):
    feature_num = x.size(1) if len(x.size()) > 1 else 1
    feature_offset = 1 + torch.arange(0, feature_num * offset, offset, dtype=torch.long)
    x = x + feature_offset
    return x


def floyd_warshall(adj):
    n = adj.shape[0]
    dist = np.where(adj, 1, 510).astype(np.int64)
    np.fill_diagonal(dist, 0)
    for k in range(n):
        dist = np.minimum(dist, dist[:, k:k + 1] + dist[k:k + 1, :])
    return dist


def preprocess_item(item):
    edge_attr, edge_index, x = item["edge_attr"], item["edge_index"], item["x"]
    N = x.size(0)
    x = convert_to_single_emb(x)

    # node adj matrix [N, N] bool
    adj = torch.zeros([N, N], dtype=torch.bool)
    adj[edge_index[0, :], edge_index[1, :]] = True

    # edge feature here
    if len(edge_attr.size()) == 1:
        edge_attr = edge_attr[:, None]
    attn_edge_type = torch.zeros([N, N, edge_attr.size(-1)], dtype=torch.long)
    attn_edge_type[edge_index[0, :], edge_index[1, :]] = convert_to_single_emb(edge_attr) + 1

    shortest_path_result = floyd_warshall(adj.numpy())
    spatial_pos = torch.from_numpy(shortest_path_result).long()

    item["x"] = x
    item["attn_edge_type"] = attn_edge_type
    item["spatial_pos"] = spatial_pos
    item["in_degree"] = adj.long().sum(dim=1).view(-1)
    return item


def pad_2d_unsqueeze(x, padlen):
    x = x + 1  # pad id = 0
    xlen, xdim = x.size()
    if xlen < padlen:
        new_x = x.new_zeros([padlen, xdim], dtype=x.dtype)
        new_x[:xlen, :] = x
        x = new_x
    return x.unsqueeze(0)


def pad_1d_unsqueeze(x, padlen):
    x = x + 1  # pad id = 0
    xlen = x.size(0)
    if xlen < padlen:
        new_x = x.new_zeros([padlen], dtype=x.dtype)
        new_x[:xlen] = x
        x = new_x
    return x.unsqueeze(0)


def pad_spatial_pos_unsqueeze(x, padlen):
    x = x + 1
    xlen = x.size(0)
    if xlen < padlen:
        new_x = x.new_zeros([padlen, padlen], dtype=x.dtype)
        new_x[:xlen, :xlen] = x
        x = new_x
    return x.unsqueeze(0)


def collator(items):
    max_node_num = max(i["x"].size(0) for i in items)
    x = torch.cat([pad_2d_unsqueeze(i["x"], max_node_num) for i in items])
    in_degree = torch.cat([pad_1d_unsqueeze(i["in_degree"], max_node_num) for i in items])
    spatial_pos = torch.cat([pad_spatial_pos_unsqueeze(i["spatial_pos"], max_node_num) for i in items])
    return {"x": x, "in_degree": in_degree, "spatial_pos": spatial_pos}


class GraphNodeFeature(nn.Module):
    def __init__(self, num_heads, num_atoms, num_in_degree, hidden_dim):
        super().__init__()
        self.atom_encoder = nn.Embedding(num_atoms + 1, hidden_dim, padding_idx=0)
        self.in_degree_encoder = nn.Embedding(num_in_degree, hidden_dim, padding_idx=0)
        self.graph_token = nn.Embedding(1, hidden_dim)

    def forward(self, batched_data):
        x, in_degree = batched_data["x"], batched_data["in_degree"]
        n_graph = x.size(0)

        # [n_graph, n_node, n_node_features] -> [n_graph, n_node, n_hidden]
        node_feature = self.atom_encoder(x).sum(dim=-2)
        node_feature = node_feature + self.in_degree_encoder(in_degree)

        # [n_graph, 1, n_hidden]
        graph_token_feature = self.graph_token.weight.unsqueeze(0).repeat(n_graph, 1, 1)
        return torch.cat([graph_token_feature, node_feature], dim=1)


def load_connectome(num_regions, rng):
    # brain connectivity graph: node labels are (lobe id, hemisphere id)
    node_labels = [[int(rng.integers(0, 6)), int(rng.integers(0, 2))] for _ in range(num_regions)]
    src, dst = np.nonzero(np.triu(rng.random((num_regions, num_regions)) < 0.3, 1))
    edge_index = torch.tensor(np.stack([np.concatenate([src, dst]), np.concatenate([dst, src])]))
    edge_attr = torch.ones(edge_index.shape[1], dtype=torch.long)
    x = torch.tensor(node_labels, dtype=torch.long)
    return {"x": x, "edge_index": edge_index, "edge_attr": edge_attr}


if __name__ == "__main__":
    torch.manual_seed(0)
    rng = np.random.default_rng(0)
    raw = [load_connectome(n, rng) for n in (9, 12, 7)]
    labels = [g["x"].tolist() for g in raw]
    degrees = []
    for g in raw:
        n = len(g["x"])
        nbrs = [set() for _ in range(n)]
        for s, d in g["edge_index"].t().tolist():
            nbrs[s].add(d)
        degrees.append([len(v) for v in nbrs])
    graphs = [preprocess_item(g) for g in raw]
    batch = collator(graphs)
    encoder = GraphNodeFeature(num_heads=4, num_atoms=512 * 2, num_in_degree=64, hidden_dim=32)
    with torch.no_grad():
        node_feature = encoder(batch)
    W_atom = encoder.atom_encoder.weight
    W_deg = encoder.in_degree_encoder.weight
    max_n = max(len(l) for l in labels)
    assert node_feature.shape == (3, max_n + 1, 32)
    for g in range(3):
        assert torch.allclose(node_feature[g, 0], encoder.graph_token.weight[0])
        for v in range(max_n):
            if v < len(labels[g]):
                lobe, hemi = labels[g][v]
                # convert_to_single_emb adds 1 + 512 * feature, the collator adds 1 more
                ref = W_atom[lobe + 2] + W_atom[hemi + 512 + 2] + W_deg[degrees[g][v] + 1]
            else:
                ref = torch.zeros(32)
            assert torch.allclose(node_feature[g, v + 1], ref, atol=1e-6), (g, v)
    print("ok")
