import torch

SMRF_CFG = {"neighbors": 8, "radius": 1.5, "slope_tol": 0.6}


def load_tile(n_ground=60, seed=0):
    g = torch.Generator().manual_seed(seed)
    ground = torch.cat([torch.rand(n_ground, 2, generator=g) * 6, torch.rand(n_ground, 1, generator=g) * 0.2], 1)
    canopy = torch.tensor([[3.0, 3.0, 18.0]])
    stray = torch.tensor([[15.0, 15.0, 0.1], [16.2, 15.1, 0.15]])
    return torch.cat([canopy, ground, stray])


def radius_knn(xy, k, radius):
    dist = torch.cdist(xy, xy)
    dist.fill_diagonal_(float("inf"))
    d, idx = dist.topk(k, dim=1, largest=False)
    found = d <= radius
    neighbors = torch.zeros_like(idx)
    neighbors[found] = idx[found]
    return neighbors


def local_ground_level(points, cfg):
    neighbors = radius_knn(points[:, :2], cfg["neighbors"], cfg["radius"])
    z = points[:, 2]
    return z[neighbors].mean(dim=1)


def classify_ground(points, cfg):
    level = local_ground_level(points, cfg)
    return (points[:, 2] - level).abs() < cfg["slope_tol"], level


if __name__ == "__main__":
    pts = load_tile()
    is_ground, level = classify_ground(pts, SMRF_CFG)
    print("stray points local level:", level[-2:].tolist())
    print("stray points classified ground:", is_ground[-2:].tolist())
