import torch


class VoxelGridEncoder:
    """Turns a stream of DVS events into a (bins, H, W) voxel grid for a reconstruction net."""

    def __init__(self, num_bins, height, width):
        self.num_bins = num_bins
        self.height = height
        self.width = width

    def __call__(self, events):
        # events: [N, 4] float32, columns (t, x, y, polarity), sorted by t
        grid = torch.zeros(self.num_bins * self.height * self.width)  # [B*H*W]
        t = events[:, 0]
        t_norm = (self.num_bins - 1) * (t - t[0]) / (t[-1] - t[0]).clamp_min(1e-9)  # [N]
        col = events[:, 1].long()  # [N]
        row = events[:, 2].long()  # [N]
        pol = torch.where(events[:, 3] > 0, 1.0, -1.0)  # [N]

        lower = t_norm.floor()
        frac = t_norm - lower
        lower_bin = lower.long()  # [N]
        for offset, weight in ((0, 1.0 - frac), (1, frac)):
            target_bin = lower_bin + offset
            keep = target_bin < self.num_bins
            flat = col[keep] + row[keep] * self.width + target_bin[keep] * self.width * self.height
            grid.index_add_(0, flat, pol[keep] * weight[keep])
        return grid.view(self.num_bins, self.height, self.width)


def load_events(n, height, width, seed=0):
    g = torch.Generator().manual_seed(seed)
    t = torch.sort(torch.rand(n, generator=g)).values
    x = torch.randint(0, width, (n,), generator=g).float()
    y = torch.randint(0, height, (n,), generator=g).float()
    p = torch.randint(0, 2, (n,), generator=g).float()
    return torch.stack([t, x, y, p], dim=1)  # as read from an events .txt file


if __name__ == "__main__":
    encoder = VoxelGridEncoder(num_bins=5, height=6, width=8)
    events = load_events(200, 6, 8)
    voxels = encoder(events)

    ref = [[[0.0] * 8 for _ in range(6)] for _ in range(5)]
    ts = events[:, 0].tolist()
    for t, x, y, p in events.tolist():
        tn = 4 * (t - ts[0]) / (ts[-1] - ts[0])
        lo = int(tn // 1)
        fr = tn - lo
        sign = 1.0 if p > 0 else -1.0
        ref[lo][int(y)][int(x)] += sign * (1.0 - fr)
        if lo + 1 < 5:
            ref[lo + 1][int(y)][int(x)] += sign * fr
    assert torch.allclose(voxels, torch.tensor(ref), atol=1e-5)
    print("ok")
