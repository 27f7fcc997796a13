import torch
from torch import nn


def batched_index_select(values, indices, dim=1):
    # broadcast the index over the trailing dims of `values`, then gather along `dim`
    value_dims = values.shape[dim + 1:]
    indices = indices[(..., *((None,) * len(value_dims)))]
    indices = indices.expand(*indices.shape[: indices.dim() - len(value_dims)], *value_dims)
    return values.gather(dim, indices)


class MultiheadPointTransformerLayer(nn.Module):
    def __init__(self, dim, heads=4, dim_head=8, pos_hidden=32, num_neighbors=4):
        super().__init__()
        self.heads, self.num_neighbors = heads, num_neighbors
        inner = heads * dim_head
        self.to_qkv = nn.Linear(dim, inner * 3, bias=False)
        self.pos_mlp = nn.Sequential(nn.Linear(3, pos_hidden), nn.ReLU(), nn.Linear(pos_hidden, inner))
        self.attn_mlp = nn.Sequential(nn.Linear(dim_head, dim_head * 2), nn.ReLU(), nn.Linear(dim_head * 2, 1))
        self.to_out = nn.Linear(inner, dim)

    def split_heads(self, t):
        b, n, _ = t.shape
        return t.view(b, n, self.heads, -1).transpose(1, 2)  # (b, h, n, d)

    def forward(self, x, pos):
        # x: (b, n, dim), pos: (b, n, 3)
        b, n, _ = x.shape
        h = self.heads
        q, k, v = map(self.split_heads, self.to_qkv(x).chunk(3, dim=-1))  # (b, h, n, d)

        rel_pos = pos[:, :, None, :] - pos[:, None, :, :]  # (b, i, j, 3)
        rel_pos_emb = self.pos_mlp(rel_pos).view(b, n, n, h, -1).permute(0, 3, 1, 2, 4)  # (b, h, i, j, d)
        qk_rel = q[:, :, :, None, :] - k[:, :, None, :, :]  # (b, h, i, j, d)
        v = v[:, :, None, :, :].expand(-1, -1, n, -1, -1)  # (b, h, i, j, d)

        # k nearest neighbours of every point i
        _, knn_idx = rel_pos.norm(dim=-1).topk(self.num_neighbors, dim=-1, largest=False)  # (b, i, k)

        knn_idx = knn_idx[:, None].expand(-1, h, -1, -1)  # (b, h, i, k)
        v = batched_index_select(v, knn_idx, dim=3)  # -> (b, h, i, k, d)
        qk_rel = batched_index_select(qk_rel, knn_idx, dim=3)
        rel_pos_emb = batched_index_select(rel_pos_emb, knn_idx, dim=3)

        sim = self.attn_mlp(qk_rel + rel_pos_emb).squeeze(-1)  # (b, h, i, k)
        attn = sim.softmax(dim=-1)
        agg = (attn[..., None] * (v + rel_pos_emb)).sum(dim=-2)  # (b, h, i, d)
        return self.to_out(agg.transpose(1, 2).reshape(b, n, -1))


if __name__ == "__main__":
    torch.manual_seed(0)
    layer = MultiheadPointTransformerLayer(dim=16, heads=4, dim_head=8, num_neighbors=4)
    feats = torch.randn(2, 16, 16)
    points = torch.randn(2, 16, 3)
    with torch.no_grad():
        out = layer(feats, points)
        qkv = layer.to_qkv(feats)
        inner, dh, kn = 32, 8, layer.num_neighbors
        ref = torch.zeros_like(out)
        for bb in range(2):
            for i in range(16):
                dists = [(points[bb, i] - points[bb, j]).norm().item() for j in range(16)]
                nbrs = sorted(range(16), key=lambda j: dists[j])[:kn]
                heads_out = []
                for hh in range(4):
                    sl = slice(hh * dh, (hh + 1) * dh)
                    q_i = qkv[bb, i, :inner][sl]
                    sims, vals = [], []
                    for j in nbrs:
                        rel = layer.pos_mlp(points[bb, i] - points[bb, j])[sl]
                        k_j = qkv[bb, j, inner:2 * inner][sl]
                        v_j = qkv[bb, j, 2 * inner:][sl]
                        sims.append(layer.attn_mlp(q_i - k_j + rel)[0])
                        vals.append(v_j + rel)
                    w = torch.stack(sims).softmax(dim=0)
                    heads_out.append(sum(w[t] * vals[t] for t in range(kn)))
                ref[bb, i] = layer.to_out(torch.cat(heads_out))
    assert torch.allclose(out, ref, atol=1e-5), (out - ref).abs().max()
    print("ok")
