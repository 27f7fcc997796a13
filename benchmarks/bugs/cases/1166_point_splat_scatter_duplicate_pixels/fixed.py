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
    canvas.scatter_add_(0, flat.unsqueeze(-1).expand_as(premult), premult)
    coverage = torch.zeros(h * w).scatter_add_(0, flat, opacity)
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
    ref_img = [[[0.0] * 3 for _ in range(8)] for _ in range(6)]
    ref_cov = [[0.0] * 8 for _ in range(6)]
    for i in range(pix.size(0)):
        x, y = int(pix[i, 0]), int(pix[i, 1])
        ref_cov[y][x] += opa[i].item()
        for c in range(3):
            ref_img[y][x][c] += col[i, c].item() * opa[i].item()
    assert torch.allclose(image, torch.tensor(ref_img), atol=1e-5)
    assert torch.allclose(coverage, torch.tensor(ref_cov), atol=1e-5)
    print("ok")
