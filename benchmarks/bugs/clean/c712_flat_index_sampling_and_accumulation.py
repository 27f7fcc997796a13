import torch
import torch.nn.functional as F


def sample_nearest(feat, pos_y, pos_x):
    # feat: (B, C, H, W); pos_y, pos_x: (B, P) continuous pixel coordinates
    b, c, h, w = feat.shape
    qy = pos_y.round().long().clamp(0, h - 1)
    qx = pos_x.round().long().clamp(0, w - 1)
    flat = (qy * w + qx).unsqueeze(1).expand(-1, c, -1)           # (B, C, P)
    return feat.reshape(b, c, h * w).gather(2, flat)               # (B, C, P)


def vertex_valence_and_normals(verts, faces):
    # verts: (V, 3); faces: (F, 3)
    tri = verts[faces]
    fn = F.normalize(torch.linalg.cross(tri[:, 1] - tri[:, 0], tri[:, 2] - tri[:, 0]), dim=1)
    normals = torch.zeros_like(verts)
    for k in range(3):
        normals.index_add_(0, faces[:, k], fn)
    valence = torch.zeros(verts.size(0)).scatter_add_(0, faces.reshape(-1), torch.ones(faces.numel()))
    return F.normalize(normals, dim=1), valence


def gold_logprob(logits, labels):
    # logits: (N, V); labels: (N,)
    logp = logits.log_softmax(-1)
    return logp[torch.arange(labels.numel()), labels]


if __name__ == "__main__":
    torch.manual_seed(0)
    feat = torch.randn(2, 3, 5, 7)
    py, px = torch.rand(2, 10) * 6 - 0.5, torch.rand(2, 10) * 8 - 0.5
    out = sample_nearest(feat, py, px)
    for bi in range(2):
        for p in range(10):
            y = min(max(int(py[bi, p].round()), 0), 4)
            x = min(max(int(px[bi, p].round()), 0), 6)
            assert torch.equal(out[bi, :, p], feat[bi, :, y, x])

    verts = torch.tensor([[0.0, 0, 1], [1, 0, 0], [0, 1, 0], [-1, 0, 0], [0, -1, 0], [0, 0, -1]])
    faces = torch.tensor([[0, 1, 2], [0, 2, 3], [0, 3, 4], [0, 4, 1], [5, 2, 1], [5, 3, 2], [5, 4, 3], [5, 1, 4]])
    normals, valence = vertex_valence_and_normals(verts, faces)
    assert torch.allclose(normals, verts, atol=1e-6)
    ref_val = [0.0] * 6
    for f in faces.tolist():
        for v in f:
            ref_val[v] += 1.0
    assert valence.tolist() == ref_val

    logits, labels = torch.randn(5, 11), torch.randint(0, 11, (5,))
    got = gold_logprob(logits, labels)
    for i in range(5):
        assert abs(got[i].item() - (logits[i, labels[i]] - torch.logsumexp(logits[i], 0)).item()) < 1e-5
    print("ok")
