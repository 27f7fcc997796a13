import torch


def events_to_voxel_grid(events, num_bins, height, width):
    """Accumulate polarity events into a (num_bins, height, width) grid with linear interpolation in time."""
    voxel = torch.zeros(num_bins, height, width)
    ts, xs, ys, pols = events[:, 0], events[:, 1].long(), events[:, 2].long(), events[:, 3]
    pols = torch.where(pols == 0, -1.0, 1.0)

    ts = (num_bins - 1) * (ts - ts[0]) / (ts[-1] - ts[0]).clamp(min=1e-9)
    tis = ts.floor().long()
    dts = ts - tis
    flat = voxel.view(-1)
    for offset, weight in ((0, 1.0 - dts), (1, dts)):
        bins = tis + offset
        valid = bins < num_bins
        idx = xs[valid] + ys[valid] * width + bins[valid] * width * height
        flat[idx] += pols[valid] * weight[valid]
    return voxel


def simulate_events(num_events, height, width, seed=0):
    g = torch.Generator().manual_seed(seed)
    t = torch.sort(torch.rand(num_events, generator=g)).values
    x = torch.randint(0, width, (num_events,), generator=g).float()
    y = torch.randint(0, height, (num_events,), generator=g).float()
    p = torch.randint(0, 2, (num_events,), generator=g).float()
    return torch.stack([t, x, y, p], dim=1)


if __name__ == "__main__":
    events = simulate_events(num_events=400, height=6, width=8)
    grid = events_to_voxel_grid(events, num_bins=3, height=6, width=8)
    print("grid sum:", grid.sum().item(), "net polarity:", torch.where(events[:, 3] == 0, -1.0, 1.0).sum().item())
    print("max |value|:", grid.abs().max().item())
