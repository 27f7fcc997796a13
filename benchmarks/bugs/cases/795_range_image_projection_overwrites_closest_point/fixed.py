import math

import torch


class RangeImageProjector:
    def __init__(self, height=16, width=64, fov_up_deg=15.0, fov_down_deg=-15.0):
        self.height, self.width = height, width
        self.fov_up = math.radians(fov_up_deg)
        self.fov = self.fov_up - math.radians(fov_down_deg)

    def pixel_coords(self, points):
        rng = points.norm(dim=1)
        yaw = torch.atan2(points[:, 1], points[:, 0])
        pitch = torch.asin(points[:, 2] / rng)
        u = ((0.5 * (1.0 - yaw / math.pi)) * self.width).long().clamp(0, self.width - 1)
        v = ((self.fov_up - pitch) / self.fov * self.height).long().clamp(0, self.height - 1)
        return v, u, rng

    def project(self, points):
        v, u, rng = self.pixel_coords(points)
        image = torch.full((self.height, self.width), float("inf"))
        flat = (v * self.width + u)  # several points can land in one pixel; keep the closest
        image.view(-1).scatter_reduce_(0, flat, rng, reduce="amin")
        return image


def make_scan(n=3000, seed=0):
    g = torch.Generator().manual_seed(seed)
    xy = torch.randn(n, 2, generator=g) * 12.0
    z = torch.rand(n, 1, generator=g) * 4.0 - 2.0
    return torch.cat([xy, z], dim=1)


if __name__ == "__main__":
    proj = RangeImageProjector()
    scan = make_scan()
    image = proj.project(scan)
    v, u, rng = proj.pixel_coords(scan)
    closest = torch.full((16, 64), float("inf"))
    for i in range(scan.shape[0]):
        closest[v[i], u[i]] = min(closest[v[i], u[i]].item(), rng[i].item())
    hit = torch.isfinite(closest)
    assert torch.equal(image, closest)
    print("ok")
