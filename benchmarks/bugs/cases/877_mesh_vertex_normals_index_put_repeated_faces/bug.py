import torch


def face_normals(verts, faces):
    # verts: (V, 3) float, faces: (F, 3) long
    v0, v1, v2 = verts[faces[:, 0]], verts[faces[:, 1]], verts[faces[:, 2]]  # (F, 3) each
    return torch.cross(v1 - v0, v2 - v0, dim=-1)  # (F, 3), area-weighted


def vertex_normals(verts, faces):
    # every face adds its normal to its three corners
    fn = face_normals(verts, faces)  # (F, 3)
    vn = torch.zeros_like(verts)  # (V, 3)
    corner_ids = faces.reshape(-1)  # (F*3,)
    corner_normals = fn.repeat_interleave(3, dim=0)  # (F*3, 3)
    vn.index_put_((corner_ids,), corner_normals)
    return torch.nn.functional.normalize(vn, dim=-1)  # (V, 3)


def square_pyramid():
    verts = torch.tensor([[0.0, 0.0, 0.0], [1.0, 0.0, 0.0], [1.0, 1.0, 0.0], [0.0, 1.0, 0.0], [0.5, 0.5, 1.0]])
    faces = torch.tensor([[0, 2, 1], [0, 3, 2], [0, 1, 4], [1, 2, 4], [2, 3, 4], [3, 0, 4]])
    return verts, faces


if __name__ == "__main__":
    verts, faces = square_pyramid()
    n = vertex_normals(verts, faces)
    print("apex normal:", n[4])
    print("base corner 0 normal:", n[0])
