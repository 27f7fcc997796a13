import torch
from torch import nn, einsum


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


class Residual(nn.Module):
    def __init__(self, fn):
        super().__init__()
        self.fn = fn

    def forward(self, feats, coors, **kwargs):
        feats_out, coors = self.fn(feats, coors, **kwargs)
        return feats + feats_out, coors


class PreNorm(nn.Module):
    def __init__(self, dim, fn):
        super().__init__()
        self.fn = fn
        self.norm = nn.LayerNorm(dim)

    def forward(self, feats, coors, **kwargs):
        return self.fn(self.norm(feats), coors, **kwargs)


class EquivariantAttention(nn.Module):
    def __init__(self, *, dim, dim_head=16, heads=4, m_dim=16):
        super().__init__()
        attn_inner_dim = heads * dim_head
        self.heads = heads
        self.to_qkv = nn.Linear(dim, attn_inner_dim * 3, bias=False)
        self.to_out = nn.Linear(attn_inner_dim, dim)

        edge_input_dim = (dim_head * 2) + 1
        self.edge_mlp = nn.Sequential(
            nn.Linear(edge_input_dim, edge_input_dim * 2),
            nn.ReLU(),
            nn.Linear(edge_input_dim * 2, m_dim),
            nn.ReLU(),
        )
        self.to_attn_mlp = nn.Sequential(nn.Linear(m_dim, m_dim * 4), nn.ReLU(), nn.Linear(m_dim * 4, 1))
        self.coors_mlp = nn.Sequential(nn.Linear(m_dim, m_dim * 4), nn.ReLU(), nn.Linear(m_dim * 4, 1))

    def forward(self, feats, coors, basis, nbhd_indices=None):
        b, n, d = feats.shape
        h = self.heads

        rel_coors = coors[:, :, None, :] - coors[:, None, :, :]
        rel_dist = (rel_coors ** 2).sum(dim=-1, keepdim=True)
        rel_dist = rel_dist[:, None].expand(b, h, n, n, 1)

        q, k, v = self.to_qkv(feats).chunk(3, dim=-1)
        q, k, v = map(lambda t: t.view(b, n, h, -1).transpose(1, 2), (q, k, v))

        i = j = n
        if exists(nbhd_indices):
            i, j = nbhd_indices.shape[-2:]
            nbhd_indices_with_heads = nbhd_indices[:, None].expand(b, h, i, j)
            k = batched_index_select(k, nbhd_indices_with_heads, dim=2)
            v = batched_index_select(v, nbhd_indices_with_heads, dim=2)
            rel_dist = batched_index_select(rel_dist, nbhd_indices_with_heads, dim=3)
            basis = batched_index_select(basis, nbhd_indices, dim=2)
        else:
            k = k[:, :, None].expand(b, h, n, n, k.shape[-1])
            v = v[:, :, None].expand(b, h, n, n, v.shape[-1])

        q = q[:, :, :, None].expand(b, h, i, j, q.shape[-1])
        edge_input = torch.cat((q, k, rel_dist), dim=-1)
        m_ij = self.edge_mlp(edge_input)

        coor_weights = self.coors_mlp(m_ij).squeeze(-1)
        coors_out = einsum('bhij,bijc->bic', coor_weights, basis)

        sim = self.to_attn_mlp(m_ij).squeeze(-1)
        attn = sim.softmax(dim=-1)
        out = einsum('bhij,bhijd->bhid', attn, v)
        out = out.transpose(1, 2).reshape(b, n, -1)
        return self.to_out(out), coors_out


class FeedForward(nn.Module):
    def __init__(self, *, dim, mult=4):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(dim, dim * mult), nn.GELU(), nn.Linear(dim * mult, dim))

    def forward(self, feats, coors):
        return self.net(feats), 0


class EnTransformer(nn.Module):
    def __init__(self, *, dim, depth, dim_head=16, heads=4, num_nearest_neighbors=0):
        super().__init__()
        self.num_nearest_neighbors = num_nearest_neighbors
        self.layers = nn.ModuleList([])
        for _ in range(depth):
            self.layers.append(nn.ModuleList([
                Residual(PreNorm(dim, EquivariantAttention(dim=dim, dim_head=dim_head, heads=heads))),
                Residual(PreNorm(dim, FeedForward(dim=dim))),
            ]))

    def neighbors(self, coors):
        n, num_nn = coors.shape[1], self.num_nearest_neighbors
        rel_coors = coors[:, :, None, :] - coors[:, None, :, :]
        nbhd_indices = None
        if num_nn > 0 and num_nn < n:
            rel_dist = rel_coors.norm(dim=-1, p=2)
            nbhd_indices = rel_dist.topk(num_nn, dim=-1).indices
        return rel_coors, nbhd_indices

    def forward(self, feats, coors):
        rel_coors, nbhd_indices = self.neighbors(coors)
        coors_delta = 0
        for attn, ff in self.layers:
            feats, coors_out = attn(feats, coors, basis=rel_coors, nbhd_indices=nbhd_indices)
            coors_delta = coors_delta + coors_out
            feats, coors_out = ff(feats, coors)
            coors_delta = coors_delta + coors_out
        return feats, coors + coors_delta


if __name__ == "__main__":
    torch.manual_seed(0)
    batch, num_points, dim, k = 2, 24, 32, 6
    model = EnTransformer(dim=dim, depth=2, num_nearest_neighbors=k)
    feats = torch.randn(batch, num_points, dim)
    coors = torch.randn(batch, num_points, 3)

    rel_coors, nbhd_indices = model.neighbors(coors)
    picked = rel_coors.norm(dim=-1).gather(-1, nbhd_indices)
    print("mean distance to the local neighbourhood:", round(picked.mean().item(), 4),
          "| mean distance to any point:", round(rel_coors.norm(dim=-1).mean().item(), 4))
    feats_out, coors_out = model(feats, coors)
    print("feats", tuple(feats_out.shape), "coors", tuple(coors_out.shape))
