import torch


def resample_along_rays(edges, weights, num_samples):
    # edges: [R, B + 1] bin edges, weights: [R, B] -> samples [R, S]
    pdf = (weights + 1e-2) / (weights + 1e-2).sum(-1, keepdim=True)
    cdf = torch.cat([torch.zeros_like(pdf[:, :1]), torch.cumsum(pdf, -1).clamp(max=1.0)], -1)  # [R, B + 1]
    u = torch.linspace(0.0, 1.0, num_samples).expand(cdf.size(0), num_samples).contiguous()
    inds = torch.searchsorted(cdf, u, right=True)
    below = (inds - 1).clamp(min=0)
    above = inds.clamp(max=cdf.size(-1) - 1)
    c0, c1 = cdf.gather(-1, below), cdf.gather(-1, above)
    e0, e1 = edges.gather(-1, below), edges.gather(-1, above)
    t = ((u - c0) / (c1 - c0).clamp(min=1e-8)).clamp(0.0, 1.0)
    return e0 + t * (e1 - e0)


def accumulate_into_voxels(points, feats, grid, voxel_size):
    # points: [N, 3] in [0, grid * voxel_size), feats: [N, C] -> mean feature per voxel [grid**3, C]
    cell = (points / voxel_size).floor().long().clamp(0, grid - 1)
    flat = (cell[:, 0] * grid + cell[:, 1]) * grid + cell[:, 2]  # [N], repeats allowed
    sums = feats.new_zeros(grid ** 3, feats.size(1))
    sums.index_put_((flat,), feats, accumulate=True)
    counts = torch.bincount(flat, minlength=grid ** 3).to(feats.dtype)
    maxes = feats.new_full((grid ** 3, feats.size(1)), float("-inf"))
    maxes.scatter_reduce_(0, flat.unsqueeze(-1).expand_as(feats), feats, reduce="amax", include_self=False)
    return sums / counts.clamp(min=1).unsqueeze(-1), maxes, flat


if __name__ == "__main__":
    torch.manual_seed(0)
    edges = torch.linspace(2.0, 6.0, 9).expand(3, 9).contiguous()
    weights = torch.rand(3, 8)
    s = resample_along_rays(edges, weights, 5)
    for r in range(3):
        w = [x + 1e-2 for x in weights[r].tolist()]
        cdf = [0.0]
        for x in w:
            cdf.append(min(cdf[-1] + x / sum(w), 1.0))
        for j in range(5):
            u = j / 4
            i = sum(1 for c in cdf if c <= u)
            lo, hi = max(i - 1, 0), min(i, len(cdf) - 1)
            t = min(max((u - cdf[lo]) / max(cdf[hi] - cdf[lo], 1e-8), 0.0), 1.0)
            assert abs(s[r, j].item() - (edges[r, lo].item() + t * (edges[r, hi].item() - edges[r, lo].item()))) < 1e-4

    pts = torch.rand(50, 3) * 2.0
    feats = torch.randn(50, 4)
    mean, mx, flat = accumulate_into_voxels(pts, feats, grid=2, voxel_size=1.0)
    for v in range(8):
        members = [i for i in range(50) if int(flat[i]) == v]
        if members:
            ref = sum(feats[i] for i in members) / len(members)
            assert torch.allclose(mean[v], ref, atol=1e-5)
            assert torch.allclose(mx[v], torch.stack([feats[i] for i in members]).max(0).values)
    print("ok")
