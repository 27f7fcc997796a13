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
    depth.scatter_reduce_(0, pix, points[:, 2], reduce="amin")
    depth[depth == far] = 0.0
    return depth.view(camera.height, camera.width)


if __name__ == "__main__":
    cam = PinholeCamera(fx=4.0, fy=4.0, cx=2.0, cy=2.0, height=4, width=4)
    torch.manual_seed(0)
    xy = torch.rand(64, 2) * 2 - 1
    z = torch.rand(64, 1) * 4 + 1
    cloud = torch.cat([xy * z, z], dim=1)
    img = render_depth(cloud, cam)
    pix = cam.project(cloud)
    ref = [0.0] * 16
    for i in range(64):
        p = int(pix[i])
        zi = float(cloud[i, 2])
        ref[p] = zi if ref[p] == 0.0 else min(ref[p], zi)
    assert torch.allclose(img.flatten(), torch.tensor(ref))
    print("ok")
