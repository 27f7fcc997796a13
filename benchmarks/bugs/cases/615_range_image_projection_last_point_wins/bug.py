import math

import torch
from jaxtyping import Float, Int


def spherical_bins(
    points: Float[torch.Tensor, "n 3"], rows: int, cols: int, fov_up: float, fov_down: float
) -> tuple[Int[torch.Tensor, " n"], Int[torch.Tensor, " n"], Float[torch.Tensor, " n"]]:
    dist = points.norm(dim=1)
    yaw = torch.atan2(points[:, 1], points[:, 0])
    pitch = torch.asin(points[:, 2] / dist)
    u = ((1.0 - (yaw + math.pi) / (2 * math.pi)) * cols).long().clamp(0, cols - 1)
    v = ((fov_up - pitch) / (fov_up - fov_down) * rows).long().clamp(0, rows - 1)
    return v, u, dist


def range_image(
    points: Float[torch.Tensor, "n 3"], rows: int = 8, cols: int = 16
) -> Float[torch.Tensor, "rows cols"]:
    v, u, dist = spherical_bins(points, rows, cols, math.radians(15.0), math.radians(-15.0))
    img = torch.zeros(rows, cols)
    img[v, u] = dist
    return img


def make_scan() -> Float[torch.Tensor, "n 3"]:
    torch.manual_seed(0)
    direction = torch.randn(40, 3)
    direction[:, 2] *= 0.1
    direction = direction / direction.norm(dim=1, keepdim=True)
    near = direction * 4.0
    far = direction * 9.0 + 0.01 * torch.randn(40, 3)
    return torch.cat([near, far], dim=0)


if __name__ == "__main__":
    scan = make_scan()
    img = range_image(scan)
    hit = img > 0
    print("pixels", int(hit.sum()), "mean range", float(img[hit].mean()))
