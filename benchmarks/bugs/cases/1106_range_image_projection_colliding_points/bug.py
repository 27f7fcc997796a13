import math

import torch


def spherical_pixels(points, H, W, fov_up_deg=3.0, fov_down_deg=-25.0):
    """Pixel coordinates of each point in the range image.

    Args:
        points: (N, 4) tensor of x, y, z, intensity.
    Returns:
        rows (N,), cols (N,) and depth (N,).
    """
    fov_up, fov_down = math.radians(fov_up_deg), math.radians(fov_down_deg)
    depth = points[:, :3].norm(dim=1)
    yaw = -torch.atan2(points[:, 1], points[:, 0])
    pitch = torch.asin(points[:, 2] / depth)
    cols = (0.5 * (yaw / math.pi + 1.0) * W).floor().clamp(0, W - 1).long()
    rows = ((1.0 - (pitch - fov_down) / (fov_up - fov_down)) * H).floor().clamp(0, H - 1).long()
    return rows, cols, depth


def range_image(points, H, W):
    """Project a sweep to a depth image keeping the closest return per pixel.

    Args:
        points: (N, 4) tensor of x, y, z, intensity.
    Returns:
        (H, W) depth image, -1 where no point falls.
    """
    rows, cols, depth = spherical_pixels(points, H, W)
    image = torch.full((H * W,), -1.0)
    image.scatter_(0, rows * W + cols, depth)
    return image.view(H, W)


def make_sweep(n, seed=0):
    g = torch.Generator().manual_seed(seed)
    az = torch.rand(n, generator=g) * 2 * math.pi
    el = torch.empty(n).uniform_(-0.4, 0.04, generator=g)
    r = torch.empty(n).uniform_(2.0, 40.0, generator=g)
    xyz = torch.stack([r * el.cos() * az.cos(), r * el.cos() * az.sin(), r * el.sin()], dim=1)
    return torch.cat([xyz, torch.rand(n, 1, generator=g)], dim=1)


if __name__ == "__main__":
    H, W = 8, 32
    sweep = make_sweep(400)
    img = range_image(sweep, H, W).view(-1)
    rows, cols, depth = spherical_pixels(sweep, H, W)
    closest = {}
    for r, c, d in zip(rows.tolist(), cols.tolist(), depth.tolist()):
        key = r * W + c
        closest[key] = min(closest.get(key, float("inf")), d)
    mismatched = sum(abs(float(img[k]) - d) > 1e-5 for k, d in closest.items())
    print(f"pixels hit: {len(closest)}, pixels not holding the closest return: {mismatched}")
    print("mean stored depth:", round(sum(float(img[k]) for k in closest) / len(closest), 2),
          "mean closest depth:", round(sum(closest.values()) / len(closest), 2))
