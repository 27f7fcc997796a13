import torch


def ravel_multi_index(coords, shape):
    # coords: (N, D) integer coordinates -> (N,) flat indices into `shape`
    shape = coords.new_tensor(shape + (1,))
    coefs = shape[1:].flipud().cumprod(dim=0).flipud()

    return (coords * coefs).sum(dim=-1)


def histogramdd(x, edges, weights=None):
    # x: (N, D) samples, edges: D tensors of (bins_d + 1,) increasing edges
    D = x.size(-1)
    bins = tuple(e.numel() - 1 for e in edges)
    low = torch.stack([e[0] for e in edges])  # (D,)
    upp = torch.stack([e[-1] for e in edges])  # (D,)

    if weights is None:
        weights = x.new_ones(x.size(0))

    # Filter out-of-bound values (the upper bound is part of the last bin)
    mask = ((x >= low) & (x <= upp)).all(dim=-1)
    x, weights = x[mask], weights[mask]

    idx = torch.stack(
        [torch.bucketize(x[:, d].contiguous(), edges[d], right=True) - 1 for d in range(D)],
        dim=-1,
    )  # (N, D), in [0, bins]

    flat = ravel_multi_index(idx, bins)  # (N,)
    hist = x.new_zeros(torch.Size(bins).numel())
    hist.index_add_(0, flat, weights)

    return hist.reshape(bins)


def joint_intensity_histogram(fixed, moving, bins=8):
    # fixed, moving: (H, W) images with intensities in [0, 1]
    edges = torch.linspace(0.0, 1.0, bins + 1)
    pairs = torch.stack([fixed.flatten(), moving.flatten()], dim=-1)  # (H * W, 2)
    return histogramdd(pairs, [edges, edges])


if __name__ == "__main__":
    torch.manual_seed(0)
    fixed = torch.rand(32, 32) * 0.85
    moving = (fixed * 1.4).clamp(max=1.0)  # bright regions saturate at exactly 1.0
    hist = joint_intensity_histogram(fixed, moving, bins=8)

    ref = torch.zeros(8, 8)
    for f, m in zip(fixed.flatten().tolist(), moving.flatten().tolist()):
        i, j = min(int(f * 8), 7), min(int(m * 8), 7)
        ref[i, j] += 1

    print("total count:", hist.sum().item(), "pixels:", fixed.numel())
    print("last moving-intensity column:", hist[:, -1].tolist(), "expected:", ref[:, -1].tolist())
    print("first moving-intensity column:", hist[:, 0].tolist(), "expected:", ref[:, 0].tolist())
