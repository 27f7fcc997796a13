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
    depth[v, u] = z
    return depth


if __name__ == "__main__":
    pts = torch.tensor([[0.0, 0.0, 2.0], [0.0, 0.0, 5.0], [0.0, 0.0, 3.0],
                        [1.0, 1.0, 4.0], [1.0, 1.0, 1.0]])
    depth = render_depth(pts, focal=2.0, height=4, width=4)
    print(depth)
