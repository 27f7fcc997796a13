import torch


def density_per_point(points, cfg):
    """Number of label centers that share each center's 2-D histogram cell."""
    hist, edges = torch.histogramdd(points, bins=[cfg["bins"], cfg["bins"]])
    xs, ys = points.t().contiguous()
    ix = (torch.bucketize(xs, edges[0], right=True) - 1).clamp(0, hist.shape[0] - 1)
    iy = (torch.bucketize(ys, edges[1], right=True) - 1).clamp(0, hist.shape[1] - 1)
    return hist[ix, iy]


def label_statistics(boxes, cfg):
    """Box centers and their normalized density, used to color the labels scatter plot."""
    centers = torch.stack([(boxes[:, 0] + boxes[:, 2]) / 2, (boxes[:, 1] + boxes[:, 3]) / 2], dim=1)
    density = density_per_point(centers, cfg)
    return centers, density / density.max()


def load_boxes(cfg):
    g = torch.Generator().manual_seed(cfg["seed"])
    xy = torch.randint(0, cfg["grid"], (cfg["num_boxes"], 2), generator=g).float() / cfg["grid"]
    wh = torch.full((cfg["num_boxes"], 2), 0.1)
    return torch.cat([xy - wh / 2, xy + wh / 2], dim=1)


if __name__ == "__main__":
    torch.manual_seed(0)
    cfg = {"seed": 0, "grid": 5, "num_boxes": 20, "bins": 4}
    boxes = load_boxes(cfg)
    centers, colors = label_statistics(boxes, cfg)
    density = density_per_point(centers, cfg)
    n = cfg["bins"]
    lo, hi = centers.min(0).values, centers.max(0).values

    def bin_of(v, d):
        k = 0
        for j in range(n):
            if v >= (lo[d] + (hi[d] - lo[d]) * j / n).item() - 1e-6:
                k = j
        return k

    cells = [(bin_of(c[0].item(), 0), bin_of(c[1].item(), 1)) for c in centers]
    for i, cell in enumerate(cells):
        assert density[i].item() == sum(1 for other in cells if other == cell), i
    print("ok")
