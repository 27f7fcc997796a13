"""Mesh utilities: per-vertex normals, uniform Laplacian smoothing and surface sampling.

Packed representation as in most mesh libraries: all meshes of a batch are concatenated,
``faces`` index into the packed vertex list and ``verts_to_mesh`` tells which mesh a vertex
belongs to.
"""
import torch
import torch.nn.functional as F


def face_areas_normals(verts: torch.Tensor, faces: torch.Tensor):
    """
    Args:
        verts: FloatTensor of shape (V, 3), packed vertex positions.
        faces: LongTensor of shape (F, 3), vertex indices of every triangle.

    Returns:
        areas: FloatTensor of shape (F,).
        normals: FloatTensor of shape (F, 3), area-weighted (not normalised) face normals.
    """
    tri = verts[faces]  # (F, 3, 3)
    normals = torch.cross(tri[:, 1] - tri[:, 0], tri[:, 2] - tri[:, 0], dim=1)
    areas = 0.5 * normals.norm(dim=1)
    return areas, normals


def vertex_normals(verts: torch.Tensor, faces: torch.Tensor) -> torch.Tensor:
    """
    Area-weighted vertex normals: every face adds its normal to its three corners.

    Args:
        verts: FloatTensor of shape (V, 3).
        faces: LongTensor of shape (F, 3).

    Returns:
        FloatTensor of shape (V, 3), unit normals.
    """
    _, face_n = face_areas_normals(verts, faces)
    acc = torch.zeros_like(verts)
    for corner in range(3):
        acc.index_add_(0, faces[:, corner], face_n)
    return F.normalize(acc, dim=1, eps=1e-12)


def unique_edges(faces: torch.Tensor) -> torch.Tensor:
    """
    Args:
        faces: LongTensor of shape (F, 3).

    Returns:
        LongTensor of shape (E, 2), each undirected edge once with v0 < v1.
    """
    e = torch.cat([faces[:, [0, 1]], faces[:, [1, 2]], faces[:, [2, 0]]], dim=0)
    e, _ = e.sort(dim=1)
    return torch.unique(e, dim=0)


def laplacian_smooth(verts: torch.Tensor, faces: torch.Tensor, lam: float = 0.5) -> torch.Tensor:
    """
    One step of uniform Laplacian smoothing: v <- v + lam * (mean(neighbours) - v).

    Args:
        verts: FloatTensor of shape (V, 3).
        faces: LongTensor of shape (F, 3).

    Returns:
        FloatTensor of shape (V, 3).
    """
    edges = unique_edges(faces)
    src = torch.cat([edges[:, 0], edges[:, 1]])
    dst = torch.cat([edges[:, 1], edges[:, 0]])
    nbr_sum = torch.zeros_like(verts).scatter_add_(0, dst.unsqueeze(1).expand(-1, 3), verts[src])
    degree = torch.zeros(verts.shape[0], dtype=verts.dtype).scatter_add_(0, dst, torch.ones_like(dst, dtype=verts.dtype))
    nbr_mean = nbr_sum / degree.clamp(min=1).unsqueeze(1)
    return verts + lam * (nbr_mean - verts)


def sample_points(verts: torch.Tensor, faces: torch.Tensor, face_to_mesh: torch.Tensor,
                  num_meshes: int, num_samples: int, generator=None):
    """
    Uniformly samples points on the surface of every mesh of a packed batch.

    Args:
        verts: FloatTensor of shape (V, 3).
        faces: LongTensor of shape (F, 3).
        face_to_mesh: LongTensor of shape (F,), mesh id of every face.
        num_meshes: number of meshes N in the batch.
        num_samples: points per mesh S.

    Returns:
        points: FloatTensor of shape (N, S, 3).
        sample_face: LongTensor of shape (N, S), packed index of the face each point lies on.
    """
    areas, _ = face_areas_normals(verts, faces)
    num_faces = faces.shape[0]
    # dense (N, F) area table: a face only carries weight in its own mesh's row
    table = torch.zeros(num_meshes, num_faces, dtype=verts.dtype)
    table[face_to_mesh, torch.arange(num_faces)] = areas
    sample_face = torch.multinomial(table, num_samples, replacement=True, generator=generator)  # (N, S)
    u = torch.rand(num_meshes, num_samples, 1, generator=generator)
    v = torch.rand(num_meshes, num_samples, 1, generator=generator)
    flip = (u + v) > 1
    u = torch.where(flip, 1 - u, u)
    v = torch.where(flip, 1 - v, v)
    corners = verts[faces[sample_face]]  # (N, S, 3, 3)
    points = corners[:, :, 0] + u * (corners[:, :, 1] - corners[:, :, 0]) + v * (corners[:, :, 2] - corners[:, :, 0])
    return points, sample_face


def _pyramid(offset):
    verts = torch.tensor([[0.0, 0.0, 0.0], [1.0, 0.0, 0.0], [1.0, 1.0, 0.0], [0.0, 1.0, 0.0], [0.5, 0.5, 1.0]])
    faces = torch.tensor([[0, 2, 1], [0, 3, 2], [0, 1, 4], [1, 2, 4], [2, 3, 4], [3, 0, 4]])
    return verts + offset, faces


if __name__ == "__main__":
    v0, f0 = _pyramid(torch.tensor([0.0, 0.0, 0.0]))
    v1, f1 = _pyramid(torch.tensor([5.0, 0.0, 0.0]))
    verts = torch.cat([v0, v1 * 1.5])
    faces = torch.cat([f0, f1 + v0.shape[0]])
    face_to_mesh = torch.cat([torch.zeros(len(f0), dtype=torch.long), torch.ones(len(f1), dtype=torch.long)])

    # vertex normals vs a loop over faces
    n = vertex_normals(verts, faces)
    ref = torch.zeros_like(verts)
    for f in faces.tolist():
        a, b, c = (verts[i] for i in f)
        fn = torch.cross(b - a, c - a, dim=0)
        for i in f:
            ref[i] += fn
    ref = ref / ref.norm(dim=1, keepdim=True)
    assert torch.allclose(n, ref, atol=1e-6)

    # Laplacian smoothing vs neighbour lists
    sm = laplacian_smooth(verts, faces, lam=0.5)
    nbrs = {i: set() for i in range(verts.shape[0])}
    for f in faces.tolist():
        for i in range(3):
            a, b = f[i], f[(i + 1) % 3]
            nbrs[a].add(b)
            nbrs[b].add(a)
    for i in range(verts.shape[0]):
        mean = torch.stack([verts[j] for j in sorted(nbrs[i])]).mean(0)
        assert torch.allclose(sm[i], verts[i] + 0.5 * (mean - verts[i]), atol=1e-6)

    # sampled points lie on their face and inside their own mesh
    g = torch.Generator().manual_seed(0)
    pts, sf = sample_points(verts, faces, face_to_mesh, num_meshes=2, num_samples=64, generator=g)
    assert pts.shape == (2, 64, 3)
    assert torch.all(face_to_mesh[sf] == torch.arange(2).unsqueeze(1))
    _, fn = face_areas_normals(verts, faces)
    for m in range(2):
        for s in range(64):
            fi = int(sf[m, s])
            a = verts[faces[fi, 0]]
            assert abs(float(torch.dot(pts[m, s] - a, fn[fi]))) < 1e-4
    print("ok")
