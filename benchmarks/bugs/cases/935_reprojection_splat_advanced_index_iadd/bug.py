import torch
from jaxtyping import Float, Int
from torch import Tensor


def project(points: Float[Tensor, "N 3"], focal: float, cx: float, cy: float) -> Float[Tensor, "N 2"]:
    z = points[:, 2].clamp_min(1e-6)
    u = focal * points[:, 0] / z + cx
    v = focal * points[:, 1] / z + cy
    return torch.stack([u, v], dim=-1)


def footprint(uv: Float[Tensor, "N 2"], height: int, width: int) -> tuple[Int[Tensor, "N K"], Int[Tensor, "N K"]]:
    """Integer pixel coordinates of the 2x2 neighbourhood around each projected point."""
    base = uv.floor().long()
    dy = torch.tensor([0, 0, 1, 1])
    dx = torch.tensor([0, 1, 0, 1])
    ys = (base[:, 1:2] + dy).clamp(0, height - 1)
    xs = (base[:, 0:1] + dx).clamp(0, width - 1)
    return ys, xs


def splat(reprojections: Float[Tensor, "H W"], ys: Int[Tensor, "N K"], xs: Int[Tensor, "N K"],
          weights: Float[Tensor, "N"]) -> Float[Tensor, "H W"]:
    reprojections[ys, xs] += weights[..., None]
    return reprojections


if __name__ == "__main__":
    torch.manual_seed(0)
    H, W = 6, 8
    pts = torch.randn(40, 3) * torch.tensor([0.3, 0.3, 0.1]) + torch.tensor([0.0, 0.0, 2.0])
    weights = torch.rand(40)
    ys, xs = footprint(project(pts, focal=4.0, cx=W / 2, cy=H / 2), H, W)
    image = splat(torch.zeros(H, W), ys, xs, weights)
    print("splatted mass:", round(image.sum().item(), 4))
    print("expected mass:", round((weights.sum() * ys.size(1)).item(), 4))
