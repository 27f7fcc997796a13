import torch
import torch.nn as nn

CONFIG = {"grid": 3, "in_channels": 5, "out_channels": 8, "seed": 0}


def grid_mesh(n):
    faces = []
    for r in range(n):
        for c in range(n):
            a, b, d, e = r * (n + 1) + c, r * (n + 1) + c + 1, (r + 1) * (n + 1) + c, (r + 1) * (n + 1) + c + 1
            faces += [(a, b, e), (a, e, d)]
    return faces


def edge_rings(faces):
    edge_id, faces_of_edge, face_edges = {}, {}, []
    for f, (a, b, c) in enumerate(faces):
        ids = []
        for u, v in ((a, b), (b, c), (c, a)):
            key = (min(u, v), max(u, v))
            ids.append(edge_id.setdefault(key, len(edge_id)))
            faces_of_edge.setdefault(ids[-1], []).append(f)
        face_edges.append(ids)
    rings = []
    for e in range(len(edge_id)):
        ring = []
        for f in faces_of_edge[e]:
            ring += [x for x in face_edges[f] if x != e]
        rings.append(ring + [-1] * (4 - len(ring)))  # boundary edges have a single face
    return torch.tensor(rings)


class EdgeConv(nn.Module):
    def __init__(self, cfg):
        super().__init__()
        self.proj = nn.Linear(5 * cfg["in_channels"], cfg["out_channels"])

    def gather_ring(self, feats, rings):
        padded = torch.cat([feats.new_zeros(1, feats.shape[1]), feats], dim=0)
        return padded[rings + 1]

    def forward(self, feats, rings):
        ring = self.gather_ring(feats, rings)
        a, b, c, d = ring.unbind(1)
        sym = torch.cat([feats, (a - c).abs(), a + c, (b - d).abs(), b + d], dim=-1)
        return self.proj(sym)


if __name__ == "__main__":
    torch.manual_seed(CONFIG["seed"])
    rings = edge_rings(grid_mesh(CONFIG["grid"]))
    feats = torch.randn(rings.shape[0], CONFIG["in_channels"])
    conv = EdgeConv(CONFIG)
    out = conv(feats, rings)

    W, bias = conv.proj.weight.tolist(), conv.proj.bias.tolist()
    F = feats.tolist()
    zero = [0.0] * CONFIG["in_channels"]
    for e, ring_ids in enumerate(rings.tolist()):
        a, b, c, d = [F[i] if i >= 0 else zero for i in ring_ids]
        sym = F[e] + [abs(x - z) for x, z in zip(a, c)] + [x + z for x, z in zip(a, c)] \
            + [abs(x - z) for x, z in zip(b, d)] + [x + z for x, z in zip(b, d)]
        ref = [sum(w * s for w, s in zip(row, sym)) + bb for row, bb in zip(W, bias)]
        assert torch.allclose(out[e], torch.tensor(ref), atol=1e-5), e
    print("ok")
