import torch


class PinholeCamera:
    def __init__(self, fx, fy, cx, cy, height, width):
        self.fx, self.fy, self.cx, self.cy = fx, fy, cx, cy
        self.height, self.width = height, width

    def project(self, points):
        u = (self.fx * points[:, 0] / points[:, 2] + self.cx).long().clamp(0, self.width - 1)
        v = (self.fy * points[:, 1] / points[:, 2] + self.cy).long().clamp(0, self.height - 1)
        return v * self.width + u


def render_depth(points, camera):
    far = 1e4
    depth = torch.full((camera.height * camera.width,), far)
    pix = camera.project(points)
    depth.scatter_(0, pix, points[:, 2])
    depth[depth == far] = 0.0
    return depth.view(camera.height, camera.width)


if __name__ == "__main__":
    cam = PinholeCamera(fx=4.0, fy=4.0, cx=2.0, cy=2.0, height=4, width=4)
    torch.manual_seed(0)
    xy = torch.rand(64, 2) * 2 - 1
    z = torch.rand(64, 1) * 4 + 1
    cloud = torch.cat([xy * z, z], dim=1)
    print(render_depth(cloud, cam))
