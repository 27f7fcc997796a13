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
        range_image[proj_y, proj_x] = depth
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
    valid = image > 0
    print("filled pixels:", int(valid.sum()), "mean range:", image[valid].mean().item())
