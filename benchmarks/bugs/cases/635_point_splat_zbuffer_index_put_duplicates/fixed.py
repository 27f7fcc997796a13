import torch
from jaxtyping import Float, Int


def project(points: Float[torch.Tensor, "n 3"], focal: float, height: int, width: int
            ) -> tuple[Int[torch.Tensor, "n"], Int[torch.Tensor, "n"], Float[torch.Tensor, "n"]]:
    z = points[:, 2]
    u = (focal * points[:, 0] / z + width / 2).long().clamp(0, width - 1)
    v = (focal * points[:, 1] / z + height / 2).long().clamp(0, height - 1)
    return v, u, z


def render_depth(points: Float[torch.Tensor, "n 3"], focal: float, height: int, width: int
                 ) -> Float[torch.Tensor, "height width"]:
    """Nearest-surface depth map of a point cloud (inf where no point lands)."""
    v, u, z = project(points, focal, height, width)
    depth = torch.full((height, width), float("inf"))
    flat = (v * width + u)
    depth = depth.view(-1).scatter_reduce(0, flat, z, reduce="amin", include_self=True)
    return depth.view(height, width)


if __name__ == "__main__":
    pts = torch.tensor([[0.0, 0.0, 2.0], [0.0, 0.0, 5.0], [0.0, 0.0, 3.0],
                        [1.0, 1.0, 4.0], [1.0, 1.0, 1.0]])
    depth = render_depth(pts, focal=2.0, height=4, width=4)
    ref = [[float("inf")] * 4 for _ in range(4)]
    v, u, z = project(pts, 2.0, 4, 4)
    for i in range(len(pts)):
        ref[int(v[i])][int(u[i])] = min(ref[int(v[i])][int(u[i])], float(z[i]))
    assert torch.equal(depth, torch.tensor(ref))
    print("ok")
