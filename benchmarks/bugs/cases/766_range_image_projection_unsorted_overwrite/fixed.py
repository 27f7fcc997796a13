import math

import torch


class SphericalProjector:
    def __init__(self, height=16, width=64, fov_up=3.0, fov_down=-25.0):
        self.H, self.W = height, width
        self.fov_up = math.radians(fov_up)
        self.fov_down = math.radians(fov_down)

    def pixel_coords(self, points):
        # points: [N, 3] -> (proj_y [N], proj_x [N], depth [N])
        depth = points.norm(dim=1)
        yaw = -torch.atan2(points[:, 1], points[:, 0])
        pitch = torch.asin(points[:, 2] / depth)
        fov = abs(self.fov_down) + abs(self.fov_up)
        proj_x = 0.5 * (yaw / math.pi + 1.0) * self.W
        proj_y = (1.0 - (pitch + abs(self.fov_down)) / fov) * self.H
        proj_x = proj_x.floor().clamp(0, self.W - 1).long()
        proj_y = proj_y.floor().clamp(0, self.H - 1).long()
        return proj_y, proj_x, depth

    def project(self, points):
        # returns range image [H, W], -1 where no point falls
        proj_y, proj_x, depth = self.pixel_coords(points)
        range_image = torch.full((self.H, self.W), -1.0)
        flat_index = proj_y * self.W + proj_x
        range_image.view(-1).scatter_reduce_(0, flat_index, depth, reduce="amin", include_self=False)
        return range_image


def make_scan(n=400, seed=0):
    g = torch.Generator().manual_seed(seed)
    direction = torch.randn(n, 3, generator=g)
    direction[:, 2] = direction[:, 2].abs().neg() * 0.2
    direction = direction / direction.norm(dim=1, keepdim=True)
    radius = torch.rand(n, 1, generator=g) * 40 + 2
    near = direction * radius
    far = direction * (radius + 15.0)  # second return per beam
    return torch.cat([near, far], dim=0)  # [2N, 3]


if __name__ == "__main__":
    scan = make_scan()
    projector = SphericalProjector()
    image = projector.project(scan)
    proj_y, proj_x, depth = projector.pixel_coords(scan)
    expected = [[-1.0] * projector.W for _ in range(projector.H)]
    for y, x, d in zip(proj_y.tolist(), proj_x.tolist(), depth.tolist()):
        if expected[y][x] < 0 or d < expected[y][x]:
            expected[y][x] = d
    assert torch.allclose(image, torch.tensor(expected)), "range image mismatch"
    print("ok")
