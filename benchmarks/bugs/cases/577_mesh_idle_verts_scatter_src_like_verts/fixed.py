import torch


def grid_vertices(n):
    """Corner vertices of an n x n x n voxel grid.

    Returns:
        verts: float tensor of shape ((n + 1) ** 3, 3).
    """
    r = torch.arange(n + 1, dtype=torch.float32)
    z, y, x = torch.meshgrid(r, r, r, indexing="ij")
    return torch.stack([x, y, z], dim=-1).reshape(-1, 3)


def remove_idle_vertices(verts, faces):
    """Drop vertices that no face refers to and re-index the faces.

    Args:
        verts: (V, 3) vertex positions.
        faces: (F, 3) vertex indices of each triangle, F * 3 may exceed V.

    Returns:
        verts: (V', 3) used vertices, faces: (F, 3) re-indexed triangles.
    """
    idleverts = torch.ones_like(verts[:, 0])
    idleverts.scatter_(0, faces.flatten(), 0.0)
    keep = idleverts == 0
    new_index = torch.cumsum(keep.long(), 0) - 1
    return verts[keep], new_index[faces]


def surface_triangles(n):
    """Two triangles per cell on the six sides of the grid, shape (12 * n * n, 3)."""
    m = n + 1
    vid = lambda x, y, z: (z * m + y) * m + x
    tris = []
    for side in range(6):
        axis, level = side // 2, (side % 2) * n
        for j in range(n):
            for i in range(n):
                quad = []
                for dj, di in ((0, 0), (0, 1), (1, 1), (1, 0)):
                    p = [i + di, j + dj]
                    p.insert(axis, level)
                    quad.append(vid(*p))
                tris += [[quad[0], quad[1], quad[2]], [quad[0], quad[2], quad[3]]]
    return torch.tensor(tris)


if __name__ == "__main__":
    verts = grid_vertices(3)
    faces = surface_triangles(3)
    v, f = remove_idle_vertices(verts, faces)
    used = sorted(set(faces.flatten().tolist()))
    assert len(used) == 64 - 8 and v.shape == (len(used), 3)
    for k, old in enumerate(used):
        assert torch.equal(v[k], verts[old])
    for t in range(faces.shape[0]):
        for c in range(3):
            assert torch.equal(v[f[t, c]], verts[faces[t, c]])
    print("ok")
