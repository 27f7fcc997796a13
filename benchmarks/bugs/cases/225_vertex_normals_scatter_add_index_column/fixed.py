import torch
import torch.nn.functional as F


def face_normals(verts, faces):
    # verts: (B, V, 3) float, faces: (B, F, 3) long vertex ids
    b_idx = torch.arange(verts.size(0))[:, None, None]
    tri = verts[b_idx, faces]  # (B, F, 3 corners, 3 xyz)
    return torch.cross(tri[:, :, 1] - tri[:, :, 0], tri[:, :, 2] - tri[:, :, 0], dim=-1)  # (B, F, 3), area-weighted


def vertex_normals(verts, faces):
    fn = face_normals(verts, faces)  # (B, F, 3)
    normals = torch.zeros_like(verts)  # (B, V, 3)
    for corner in range(3):
        idx = faces[:, :, corner : corner + 1]  # (B, F, 1) vertex id of this corner
        normals.scatter_add_(1, idx.expand(-1, -1, 3), fn)  # accumulate the face normal on the corner vertex
    return F.normalize(normals, dim=-1, eps=1e-8)


def laplacian_smooth_along_normals(verts, faces, step=0.1):
    normals = vertex_normals(verts, faces)  # (B, V, 3)
    return verts + step * normals


if __name__ == "__main__":
    import math

    base_verts = torch.tensor([[0.0, 0.0, 0.0], [1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, 1.0]])
    base_faces = torch.tensor([[0, 2, 1], [0, 1, 3], [0, 3, 2], [1, 2, 3]])
    verts = torch.stack([base_verts, 2.0 * base_verts])
    faces = torch.stack([base_faces, base_faces])
    normals = vertex_normals(verts, faces)
    for b in range(2):
        acc = [[0.0, 0.0, 0.0] for _ in range(4)]
        for f in faces[b].tolist():
            p0, p1, p2 = (verts[b, i].tolist() for i in f)
            e1 = [p1[k] - p0[k] for k in range(3)]
            e2 = [p2[k] - p0[k] for k in range(3)]
            n = [e1[1] * e2[2] - e1[2] * e2[1], e1[2] * e2[0] - e1[0] * e2[2], e1[0] * e2[1] - e1[1] * e2[0]]
            for v in f:
                for k in range(3):
                    acc[v][k] += n[k]
        for v in range(4):
            length = math.sqrt(sum(c * c for c in acc[v]))
            for k in range(3):
                assert abs(normals[b, v, k].item() - acc[v][k] / length) < 1e-5
    moved = laplacian_smooth_along_normals(verts, faces)
    assert moved.shape == verts.shape
    print("ok")
