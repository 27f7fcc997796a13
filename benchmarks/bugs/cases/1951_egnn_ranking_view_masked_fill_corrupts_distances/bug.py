import torch
from torch import nn


def exists(val):
    return val is not None


def batched_index_select(values, indices, dim=1):
    value_dims = values.shape[(dim + 1):]
    values_shape, indices_shape = map(lambda t: list(t.shape), (values, indices))
    indices = indices[(..., *((None,) * len(value_dims)))]
    indices = indices.expand(*((-1,) * len(indices_shape)), *value_dims)
    value_expand_len = len(indices_shape) - (dim + 1)
    values = values[(*((slice(None),) * dim), *((None,) * value_expand_len), ...)]

    value_expand_shape = [-1] * len(values.shape)
    expand_slice = slice(dim, (dim + value_expand_len))
    value_expand_shape[expand_slice] = indices.shape[expand_slice]
    values = values.expand(*value_expand_shape)

    dim += value_expand_len
    return values.gather(dim, indices)


class EGNN(nn.Module):
    def __init__(self, dim, m_dim=16, num_nearest_neighbors=4):
        super().__init__()
        edge_input_dim = (dim * 2) + 1
        self.edge_mlp = nn.Sequential(
            nn.Linear(edge_input_dim, edge_input_dim * 2),
            nn.SiLU(),
            nn.Linear(edge_input_dim * 2, m_dim),
            nn.SiLU(),
        )
        self.node_mlp = nn.Sequential(
            nn.Linear(dim + m_dim, dim * 2),
            nn.SiLU(),
            nn.Linear(dim * 2, dim),
        )
        self.coors_mlp = nn.Sequential(
            nn.Linear(m_dim, m_dim * 4),
            nn.SiLU(),
            nn.Linear(m_dim * 4, 1),
        )
        self.num_nearest_neighbors = num_nearest_neighbors

    def select_neighbors(self, coors, adj_mat=None):
        b, n, _ = coors.shape
        num_nearest = self.num_nearest_neighbors

        rel_coors = coors.unsqueeze(2) - coors.unsqueeze(1)
        rel_dist = (rel_coors ** 2).sum(dim=-1, keepdim=True)

        ranking = rel_dist[..., 0]

        if exists(adj_mat):
            if len(adj_mat.shape) == 2:
                adj_mat = adj_mat.clone().unsqueeze(0).expand(b, -1, -1)

            self_mask = torch.eye(n, dtype=torch.bool).unsqueeze(0)

            adj_mat = adj_mat.masked_fill(self_mask, False)
            ranking.masked_fill_(self_mask, -1.)
            ranking.masked_fill_(adj_mat, 0.)

        nbhd_ranking, nbhd_indices = ranking.topk(num_nearest, dim=-1, largest=False)

        rel_coors = batched_index_select(rel_coors, nbhd_indices, dim=2)
        rel_dist = batched_index_select(rel_dist, nbhd_indices, dim=2)
        return nbhd_indices, rel_coors, rel_dist

    def forward(self, feats, coors, adj_mat=None):
        nbhd_indices, rel_coors, rel_dist = self.select_neighbors(coors, adj_mat)

        feats_j = batched_index_select(feats, nbhd_indices, dim=1)
        feats_i = feats.unsqueeze(2).expand_as(feats_j)

        edge_input = torch.cat((feats_i, feats_j, rel_dist), dim=-1)
        m_ij = self.edge_mlp(edge_input)

        coor_weights = self.coors_mlp(m_ij).squeeze(-1)
        coors_out = torch.einsum('b i j, b i j c -> b i c', coor_weights, rel_coors) + coors

        m_i = m_ij.sum(dim=-2)
        node_out = self.node_mlp(torch.cat((feats, m_i), dim=-1)) + feats
        return node_out, coors_out


def chain_adjacency(n):
    adj = torch.zeros(n, n, dtype=torch.bool)
    idx = torch.arange(n - 1)
    adj[idx, idx + 1] = True
    adj[idx + 1, idx] = True
    return adj


if __name__ == "__main__":
    torch.manual_seed(0)
    batch, num_atoms, dim = 2, 7, 8
    feats = torch.randn(batch, num_atoms, dim)
    coors = torch.randn(batch, num_atoms, 3) * 2.0
    bonds = chain_adjacency(num_atoms)

    layer = EGNN(dim=dim, num_nearest_neighbors=4)
    nbhd_indices, rel_coors, rel_dist = layer.select_neighbors(coors, adj_mat=bonds)
    true_dist = (rel_coors ** 2).sum(dim=-1)
    print("neighbours of atom 3:", nbhd_indices[0, 3].tolist())
    print("distance fed to edge MLP:", [round(v, 3) for v in rel_dist[0, 3, :, 0].tolist()])
    print("actual squared distance: ", [round(v, 3) for v in true_dist[0, 3].tolist()])
    node_out, coors_out = layer(feats, coors, adj_mat=bonds)
    print("node_out", tuple(node_out.shape), "coors_out", tuple(coors_out.shape))
