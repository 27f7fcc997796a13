import torch
import torch.nn.functional as F


class TriMesh:
    def __init__(self, verts, faces):
        self.verts = verts
        self.faces = faces

    def face_normals(self, normalize=True):
        tris = self.verts[self.faces]
        n = torch.cross(tris[:, 1] - tris[:, 0], tris[:, 2] - tris[:, 0], dim=1)
        return F.normalize(n, dim=1) if normalize else n

    def vertex_normals(self):
        n = self.face_normals()
        norms = torch.zeros_like(self.verts)
        norms.index_add_(0, self.faces[:, 0], n)
        norms.index_add_(0, self.faces[:, 1], n)
        norms.index_add_(0, self.faces[:, 2], n)
        return F.normalize(norms, dim=1)


def shade(mesh, light_dir):
    normals = mesh.vertex_normals()
    return (normals @ F.normalize(light_dir, dim=0)).clamp(min=0)


if __name__ == "__main__":
    verts = torch.tensor([[0.0, 0.0, 1.0], [1.0, 0.0, 0.0], [0.0, 1.0, 0.0],
                          [-1.0, 0.0, 0.0], [0.0, -1.0, 0.0], [0.0, 0.0, -1.0]])
    faces = torch.tensor([[0, 1, 2], [0, 2, 3], [0, 3, 4], [0, 4, 1],
                          [5, 2, 1], [5, 3, 2], [5, 4, 3], [5, 1, 4]])
    mesh = TriMesh(verts, faces)
    fn = mesh.face_normals()
    ref = torch.zeros_like(verts)
    for f in range(faces.size(0)):
        for k in range(3):
            ref[faces[f, k]] += fn[f]
    ref = F.normalize(ref, dim=1)
    assert torch.allclose(mesh.vertex_normals(), ref, atol=1e-6)
    assert torch.allclose(mesh.vertex_normals(), verts, atol=1e-6)
    shade(mesh, torch.tensor([0.0, 0.0, 1.0]))
    print("ok")
