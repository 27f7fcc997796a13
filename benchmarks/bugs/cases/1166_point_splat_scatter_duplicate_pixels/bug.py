import torch

RENDER_CFG = {"height": 6, "width": 8, "num_points": 40, "channels": 3}


def project(points, cfg):
    scale = torch.tensor([cfg["width"] - 1, cfg["height"] - 1], dtype=points.dtype)
    return (points[:, :2] * scale).round().long()


def splat(pixels, colors, opacity, cfg):
    h, w = cfg["height"], cfg["width"]
    flat = pixels[:, 1] * w + pixels[:, 0]
    premult = colors * opacity.unsqueeze(-1)
    canvas = torch.zeros(h * w, colors.size(-1))
    canvas.scatter_(0, flat.unsqueeze(-1).expand_as(premult), premult)
    coverage = torch.zeros(h * w).scatter_(0, flat, opacity)
    return canvas.view(h, w, -1), coverage.view(h, w)


def make_scene(cfg, seed=0):
    g = torch.Generator().manual_seed(seed)
    pts = torch.rand(cfg["num_points"], 3, generator=g)
    col = torch.rand(cfg["num_points"], cfg["channels"], generator=g)
    opa = torch.rand(cfg["num_points"], generator=g)
    return pts, col, opa


def render(cfg):
    pts, col, opa = make_scene(cfg)
    pix = project(pts, cfg)
    image, coverage = splat(pix, col, opa, cfg)
    return pix, col, opa, image, coverage


if __name__ == "__main__":
    pix, col, opa, image, coverage = render(RENDER_CFG)
    hits = torch.bincount(pix[:, 1] * RENDER_CFG["width"] + pix[:, 0], minlength=48)
    print("pixels hit by more than one point:", int((hits > 1).sum()))
    print("total opacity splatted:", round(opa.sum().item(), 4), "on canvas:", round(coverage.sum().item(), 4))
