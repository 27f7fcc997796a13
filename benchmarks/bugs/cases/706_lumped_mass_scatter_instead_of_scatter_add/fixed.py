import torch
from jaxtyping import Float, Int


def face_areas(verts: Float[torch.Tensor, "V 3"], faces: Int[torch.Tensor, "F 3"]) -> Float[torch.Tensor, "F"]:
    tri = verts[faces]
    return 0.5 * torch.linalg.cross(tri[:, 1] - tri[:, 0], tri[:, 2] - tri[:, 0]).norm(dim=1)


def lumped_mass(verts: Float[torch.Tensor, "V 3"], faces: Int[torch.Tensor, "F 3"]) -> Float[torch.Tensor, "V"]:
    per_corner: Float[torch.Tensor, "F3"] = (face_areas(verts, faces) / 3.0).repeat_interleave(3)
    mass = torch.zeros(verts.shape[0], dtype=verts.dtype)
    mass.scatter_add_(0, faces.reshape(-1), per_corner)
    return mass


def grid_mesh(n: int, bump: float = 0.3) -> tuple[Float[torch.Tensor, "V 3"], Int[torch.Tensor, "F 3"]]:
    ys, xs = torch.meshgrid(torch.linspace(0, 1, n), torch.linspace(0, 1, n), indexing="ij")
    zs = bump * torch.sin(3.0 * xs) * torch.cos(2.0 * ys)
    verts = torch.stack([xs, ys, zs], dim=-1).reshape(-1, 3)
    faces = []
    for i in range(n - 1):
        for j in range(n - 1):
            a, b, c, d = i * n + j, i * n + j + 1, (i + 1) * n + j, (i + 1) * n + j + 1
            faces += [[a, b, d], [a, d, c]]
    return verts, torch.tensor(faces)


def heat_step(u: Float[torch.Tensor, "V"], mass: Float[torch.Tensor, "V"], source: Float[torch.Tensor, "V"], dt: float):
    return u + dt * source / mass


if __name__ == "__main__":
    verts, faces = grid_mesh(5)
    mass = lumped_mass(verts, faces)
    areas = face_areas(verts, faces)
    ref = [0.0] * verts.shape[0]
    for f in range(faces.shape[0]):
        for k in range(3):
            ref[faces[f, k].item()] += areas[f].item() / 3.0
    assert torch.allclose(mass, torch.tensor(ref), atol=1e-6)
    assert abs(mass.sum().item() - areas.sum().item()) < 1e-5
    heat_step(torch.zeros_like(mass), mass, torch.ones_like(mass), 0.1)
    print("ok")
