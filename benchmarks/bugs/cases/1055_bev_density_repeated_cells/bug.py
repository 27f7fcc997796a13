import torch

CFG = {"grid": 16, "extent": 40.0, "n_points": 500, "seed": 3}


def points_to_cells(points, cfg):
    scale = cfg["grid"] / (2 * cfg["extent"])
    cells = ((points[:, :2] + cfg["extent"]) * scale).long()
    return cells.clamp_(0, cfg["grid"] - 1)


def bev_density(points, intensity, cfg):
    cells = points_to_cells(points, cfg)
    density = torch.zeros(cfg["grid"], cfg["grid"])
    density[cells[:, 1], cells[:, 0]] += intensity
    return density


def make_scan(cfg):
    g = torch.Generator().manual_seed(cfg["seed"])
    pts = torch.randn(cfg["n_points"], 3, generator=g) * 12.0
    return pts, torch.rand(cfg["n_points"], generator=g)


if __name__ == "__main__":
    pts, inten = make_scan(CFG)
    dens = bev_density(pts, inten, CFG)
    print("total intensity in grid:", round(dens.sum().item(), 3), "of", round(inten.sum().item(), 3))
    print("busiest cell:", dens.max().item())
