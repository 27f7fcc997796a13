import torch


def project_points(points, intrinsics, image_size):
    fx, fy, cx, cy = intrinsics
    h, w = image_size
    x, y, z = points.unbind(-1)
    keep = z > 0.1
    x, y, z = x[keep], y[keep], z[keep]
    u = (fx * x / z + cx).round().long()
    v = (fy * y / z + cy).round().long()
    inside = (u >= 0) & (u < w) & (v >= 0) & (v < h)
    return u[inside], v[inside], z[inside]


def sparse_depth_target(points, cam):
    """Ground-truth depth for a camera: the closest LiDAR return in every pixel, 0 where there is none."""
    u, v, z = project_points(points, cam["intrinsics"], cam["image_size"])
    depth = torch.zeros(cam["image_size"])
    depth[v, u] = z
    return depth


def make_scene(cfg, seed):
    g = torch.Generator().manual_seed(seed)
    n = cfg["num_points"]
    z = 2.0 + 18.0 * torch.rand(n, generator=g)
    x = (torch.rand(n, generator=g) - 0.5) * z * 0.8
    y = (torch.rand(n, generator=g) - 0.5) * z * 0.6
    return torch.stack([x, y, z], dim=-1)


if __name__ == "__main__":
    cfg = {"num_points": 600}
    cam = {"intrinsics": (12.0, 12.0, 8.0, 6.0), "image_size": (12, 16)}
    points = make_scene(cfg, seed=0)
    target = sparse_depth_target(points, cam)
    u, v, z = project_points(points, cam["intrinsics"], cam["image_size"])
    nearest = torch.full(cam["image_size"], float("inf"))
    for ui, vi, zi in zip(u.tolist(), v.tolist(), z.tolist()):
        nearest[vi, ui] = min(nearest[vi, ui].item(), zi)
    nearest[torch.isinf(nearest)] = 0
    print("pixels hit:", int((target > 0).sum()), "of", len(u), "points")
    print("pixels not holding the nearest return:", int((target != nearest).sum()), "max error:", (target - nearest).abs().max().item())
