import torch
from torch import nn, einsum, Tensor
from jaxtyping import Float, Bool, Int


def exists(val):
    return val is not None


def batched_index_select(values: Tensor, indices: Int[Tensor, "..."], dim: int = 1) -> Tensor:
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


class EquivariantAttention(nn.Module):
    def __init__(self, *, dim, dim_head=16, heads=4, m_dim=16,
                 num_nearest_neighbors=0, valid_neighbor_radius=float('inf')):
        super().__init__()
        self.heads = heads
        self.num_nearest_neighbors = num_nearest_neighbors
        self.valid_neighbor_radius = valid_neighbor_radius
        attn_inner_dim = heads * dim_head
        self.to_qkv = nn.Linear(dim, attn_inner_dim * 3, bias=False)
        self.to_out = nn.Linear(attn_inner_dim, dim)
        self.to_pos_emb = nn.Sequential(nn.Linear(1, dim_head * 2), nn.ReLU(), nn.Linear(dim_head * 2, dim_head))
        edge_input_dim = dim_head * 2
        self.edge_mlp = nn.Sequential(nn.Linear(edge_input_dim, edge_input_dim * 2), nn.ReLU(),
                                      nn.Linear(edge_input_dim * 2, m_dim), nn.ReLU())
        self.to_attn_mlp = nn.Sequential(nn.Linear(m_dim, m_dim * 4), nn.ReLU(), nn.Linear(m_dim * 4, 1))
        self.coors_mlp = nn.Sequential(nn.Linear(m_dim, m_dim * 4), nn.ReLU(), nn.Linear(m_dim * 4, 1))
        self.to_coors_out = nn.Linear(heads, 1, bias=False)

    def forward(
        self,
        feats: Float[Tensor, "b n d"],
        coors: Float[Tensor, "b n 3"],
        mask: Bool[Tensor, "b n"] | None = None,
    ) -> tuple[Float[Tensor, "b n d"], Float[Tensor, "b n 3"]]:
        b, n, d = feats.shape
        h, num_nn, valid_neighbor_radius = self.heads, self.num_nearest_neighbors, self.valid_neighbor_radius

        rel_coors: Float[Tensor, "b n n 3"] = coors[:, :, None, :] - coors[:, None, :, :]
        rel_dist: Float[Tensor, "b n n"] = rel_coors.norm(p=2, dim=-1)

        nbhd_indices = None
        nbhd_masks = None
        nbhd_ranking = rel_dist

        if num_nn > 0:
            # make sure padding does not end up becoming neighbors
            if exists(mask):
                ranking_mask = mask[:, :, None] * mask[:, None, :]
                nbhd_ranking = nbhd_ranking.masked_fill(~ranking_mask, 1e5)

            nbhd_values, nbhd_indices = nbhd_ranking.topk(num_nn, dim=-1, largest=False)
            nbhd_masks: Bool[Tensor, "b n k"] = nbhd_values <= valid_neighbor_radius

        rel_dist = rel_dist[:, None, :, :, None].expand(b, h, n, n, 1)

        q, k, v = self.to_qkv(feats).chunk(3, dim=-1)
        q, k, v = map(lambda t: t.view(b, n, h, -1).transpose(1, 2), (q, k, v))

        i = j = n
        if exists(nbhd_indices):
            i, j = nbhd_indices.shape[-2:]
            nbhd_indices_with_heads: Int[Tensor, "b h n k"] = nbhd_indices[:, None].expand(b, h, i, j)
            k = batched_index_select(k, nbhd_indices_with_heads, dim=2)
            v = batched_index_select(v, nbhd_indices_with_heads, dim=2)
            rel_dist = batched_index_select(rel_dist, nbhd_indices_with_heads, dim=3)
            rel_coors = batched_index_select(rel_coors, nbhd_indices, dim=2)
        else:
            k = k[:, :, None].expand(b, h, n, n, k.shape[-1])
            v = v[:, :, None].expand(b, h, n, n, v.shape[-1])

        rel_dist_pos_emb = self.to_pos_emb(rel_dist)
        v = v + rel_dist_pos_emb

        if exists(mask):
            q_mask: Bool[Tensor, "b 1 n 1"] = mask[:, None, :, None]
            k_mask: Bool[Tensor, "b n n"] = mask[:, None, :].expand(b, n, n)
            if exists(nbhd_indices):
                k_mask = batched_index_select(k_mask, nbhd_indices, dim=2)
            k_mask: Bool[Tensor, "b 1 n k"] = k_mask[:, None]

            mask: Bool[Tensor, "b 1 n k"] = q_mask * k_mask

            if exists(nbhd_masks):
                mask &= nbhd_masks

        q = q[:, :, :, None].expand(b, h, i, j, q.shape[-1])
        edge_input = torch.cat(((q * k), rel_dist_pos_emb), dim=-1)
        m_ij = self.edge_mlp(edge_input)

        coor_weights = self.coors_mlp(m_ij).squeeze(-1)
        if exists(mask):
            coor_weights = coor_weights.masked_fill(~mask, 0.)
        coors_out = einsum('bhij,bijc->bich', coor_weights, rel_coors)
        coors_out = self.to_coors_out(coors_out).squeeze(-1)

        sim = self.to_attn_mlp(m_ij).squeeze(-1)
        if exists(mask):
            sim = sim.masked_fill(~mask, -torch.finfo(sim.dtype).max)
        attn = sim.softmax(dim=-1)
        out = einsum('bhij,bhijd->bhid', attn, v)
        out = out.transpose(1, 2).reshape(b, n, -1)
        return self.to_out(out), coors_out


if __name__ == "__main__":
    torch.manual_seed(0)
    layer = EquivariantAttention(dim=32, num_nearest_neighbors=6, valid_neighbor_radius=1.5)
    feats = torch.randn(2, 16, 32)
    coors = torch.randn(2, 16, 3)
    mask = torch.ones(2, 16, dtype=torch.bool)
    mask[1, 12:] = False
    feats_out, coors_out = layer(feats, coors, mask=mask)
    print("feats", tuple(feats_out.shape), "coors", tuple(coors_out.shape))
