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
        normals.scatter_add_(1, idx, fn)  # accumulate the face normal on the corner vertex
    return F.normalize(normals, dim=-1, eps=1e-8)


def laplacian_smooth_along_normals(verts, faces, step=0.1):
    normals = vertex_normals(verts, faces)  # (B, V, 3)
    return verts + step * normals


if __name__ == "__main__":
    # a unit tetrahedron, batched twice with a different scale
    base_verts = torch.tensor([[0.0, 0.0, 0.0], [1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, 1.0]])
    base_faces = torch.tensor([[0, 2, 1], [0, 1, 3], [0, 3, 2], [1, 2, 3]])
    verts = torch.stack([base_verts, 2.0 * base_verts])  # (2, 4, 3)
    faces = torch.stack([base_faces, base_faces])  # (2, 4, 3)
    normals = vertex_normals(verts, faces)
    print("normal of the apex vertex 3:", [round(v, 4) for v in normals[0, 3].tolist()])
    print("normal of the corner vertex 0:", [round(v, 4) for v in normals[0, 0].tolist()])
