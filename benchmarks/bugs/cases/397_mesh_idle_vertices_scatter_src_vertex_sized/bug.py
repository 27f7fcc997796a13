import torch


def grid_mesh(n):
    # vertices of an (n+1) x (n+1) grid in the z=0 plane, two triangles per cell
    ys, xs = torch.meshgrid(torch.arange(n + 1.0), torch.arange(n + 1.0), indexing="ij")
    verts = torch.stack([xs.flatten(), ys.flatten(), torch.zeros((n + 1) ** 2)], dim=1)  # [V, 3]
    faces = []
    for i in range(n):
        for j in range(n):
            a = i * (n + 1) + j
            faces.append([a, a + 1, a + n + 1])
            faces.append([a + 1, a + n + 2, a + n + 1])
    return verts, torch.tensor(faces)  # [V, 3], [F, 3]


def remove_idle_vertices(verts, faces):
    # verts: [V, 3] float, faces: [F, 3] long
    num_verts = verts.shape[0]
    idle = torch.ones(num_verts, dtype=torch.uint8)  # [V], 1 = not referenced by any face
    idle.scatter_(0, faces.flatten(), torch.zeros_like(idle))  # index [3F]
    keep = idle == 0  # [V]
    new_id = torch.cumsum(keep.long(), 0) - 1  # [V]
    return verts[keep], new_id[faces]  # [V', 3], [F, 3]


if __name__ == "__main__":
    verts, faces = grid_mesh(4)  # 25 vertices, 32 faces
    faces = faces[faces[:, 0] % 5 < 2]  # keep only the triangles of the first columns
    v, f = remove_idle_vertices(verts, faces)
    print("vertices:", verts.shape[0], "->", v.shape[0], "faces:", f.shape[0])
