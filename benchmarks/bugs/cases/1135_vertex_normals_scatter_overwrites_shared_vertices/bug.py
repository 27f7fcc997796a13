import torch
import torch.nn.functional as F
from jaxtyping import Float, Int


def face_normals(
    verts: Float[torch.Tensor, "V 3"], faces: Int[torch.Tensor, "F 3"]
) -> Float[torch.Tensor, "F 3"]:
    v0, v1, v2 = verts[faces[:, 0]], verts[faces[:, 1]], verts[faces[:, 2]]
    return torch.linalg.cross(v1 - v0, v2 - v0)  # length = 2 * triangle area


def vertex_normals(
    verts: Float[torch.Tensor, "V 3"], faces: Int[torch.Tensor, "F 3"]
) -> Float[torch.Tensor, "V 3"]:
    fn = face_normals(verts, faces)
    acc = torch.zeros_like(verts)
    for corner in range(3):
        idx = faces[:, corner : corner + 1].expand(-1, 3)
        acc.scatter_(0, idx, fn)
    return F.normalize(acc, dim=-1)


def unit_cube() -> tuple[Float[torch.Tensor, "8 3"], Int[torch.Tensor, "12 3"]]:
    verts = torch.tensor([[x, y, z] for x in (0.0, 1.0) for y in (0.0, 1.0) for z in (0.0, 1.0)])
    quads = [(0, 1, 3, 2), (4, 6, 7, 5), (0, 4, 5, 1), (2, 3, 7, 6), (0, 2, 6, 4), (1, 5, 7, 3)]
    faces = [t for a, b, c, d in quads for t in ((a, b, c), (a, c, d))]
    return verts - 0.5, torch.tensor(faces)


if __name__ == "__main__":
    verts, faces = unit_cube()
    normals = vertex_normals(verts, faces)
    radial = F.normalize(verts, dim=-1)  # smooth corner normals lean towards the cube diagonal
    print("cos to radial direction:", (normals * radial).sum(-1).tolist())
