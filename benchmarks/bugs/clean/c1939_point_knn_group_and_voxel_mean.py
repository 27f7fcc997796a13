import torch


def knn(query, support, k):
    """Indices of the k nearest support points of every query point.

    query: (B, M, 3), support: (B, N, 3) -> (B, M, k) long
    """
    dist = torch.cdist(query, support, compute_mode="donot_use_mm_for_euclid_dist")
    return dist.topk(k, dim=-1, largest=False).indices


def group_features(features, idx):
    """Gathers neighbour features.

    features: (B, N, C), idx: (B, M, k) -> (B, M, k, C)
    """
    B, M, k = idx.shape
    C = features.shape[-1]
    flat = idx.reshape(B, M * k, 1).expand(B, M * k, C)
    return torch.gather(features, 1, flat).reshape(B, M, k, C)


def three_nn_interpolate(unknown, known, known_feats):
    """Inverse-distance interpolation from the 3 nearest known points.

    unknown: (B, N, 3), known: (B, M, 3), known_feats: (B, M, C) -> (B, N, C)
    """
    dist = torch.cdist(unknown, known, compute_mode="donot_use_mm_for_euclid_dist")
    d, idx = dist.topk(3, dim=-1, largest=False)
    weight = 1.0 / (d + 1e-8)
    weight = weight / weight.sum(dim=-1, keepdim=True)
    neighbours = group_features(known_feats, idx)  # (B, N, 3, C)
    return (neighbours * weight.unsqueeze(-1)).sum(dim=2)


def voxel_mean(points, feats, voxel_size):
    """Averages the features of the points that share a voxel.

    points: (N, 3), feats: (N, C) -> voxel coords (V, 3), voxel features (V, C), point-to-voxel map (N,)
    """
    coords = torch.floor(points / voxel_size).long()
    voxels, inverse = torch.unique(coords, dim=0, return_inverse=True)
    summed = feats.new_zeros(voxels.shape[0], feats.shape[1]).index_add_(0, inverse, feats)
    counts = torch.bincount(inverse, minlength=voxels.shape[0]).clamp(min=1).unsqueeze(1)
    return voxels, summed / counts, inverse


if __name__ == "__main__":
    torch.manual_seed(0)
    B, N, M, C, k = 2, 40, 12, 5, 4
    xyz = torch.rand(B, N, 3)
    feats = torch.randn(B, N, C)
    centers = xyz[:, :M]

    idx = knn(centers, xyz, k)
    grouped = group_features(feats, idx)
    for b in range(B):
        for m in range(M):
            dists = [(float(((xyz[b, n] - centers[b, m]) ** 2).sum()), n) for n in range(N)]
            nearest = [n for _, n in sorted(dists)[:k]]
            assert sorted(idx[b, m].tolist()) == sorted(nearest)
            for j in range(k):
                assert torch.equal(grouped[b, m, j], feats[b, idx[b, m, j]])

    center_feats = torch.randn(B, M, C)
    up = three_nn_interpolate(xyz, centers, center_feats)
    for b in range(B):
        for n in range(N):
            ds = sorted((float(torch.dist(xyz[b, n], centers[b, m])), m) for m in range(M))[:3]
            w = [1.0 / (d + 1e-8) for d, _ in ds]
            ref = sum(wi * center_feats[b, m] for wi, (_, m) in zip(w, ds)) / sum(w)
            assert torch.allclose(up[b, n], ref, atol=1e-4)

    pts = xyz[0] * 2.0
    voxels, vfeat, inverse = voxel_mean(pts, feats[0], voxel_size=0.5)
    for v in range(voxels.shape[0]):
        members = [n for n in range(N) if torch.equal(torch.floor(pts[n] / 0.5).long(), voxels[v])]
        assert members and all(int(inverse[n]) == v for n in members)
        ref = sum(feats[0, n] for n in members) / len(members)
        assert torch.allclose(vfeat[v], ref, atol=1e-5)
    print("ok")
