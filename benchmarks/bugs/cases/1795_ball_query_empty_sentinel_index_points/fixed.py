import torch


def square_distance(src, dst):
    """
    Input:
        src: source points, [B, N, C]
        dst: target points, [B, M, C]
    Output:
        dist: per-point square distance, [B, N, M]
    """
    return ((src[:, :, None, :] - dst[:, None, :, :]) ** 2).sum(-1)


def index_points(points, idx):
    """
    Input:
        points: input points data, [B, N, C]
        idx: sample index data, [B, S] or [B, S, K]
    Return:
        new_points: indexed points data, [B, S, C] or [B, S, K, C]
    """
    B = points.shape[0]
    view_shape = [B] + [1] * (idx.dim() - 1)
    batch_indices = torch.arange(B).view(view_shape).expand_as(idx)
    return points[batch_indices, idx, :]


def query_ball_point(radius, nsample, xyz, new_xyz):
    """
    Input:
        radius: local region radius
        nsample: max sample number in local region
        xyz: all points, [B, N, 3]
        new_xyz: query points, [B, S, 3]
    Return:
        group_idx: grouped points index, [B, S, nsample]
    """
    B, N, _ = xyz.shape
    S = new_xyz.shape[1]
    sqrdists = square_distance(new_xyz, xyz)
    group_idx = torch.arange(N).view(1, 1, N).repeat(B, S, 1)
    group_idx[sqrdists > radius ** 2] = N
    group_idx = group_idx.sort(dim=-1)[0][:, :, :nsample]
    nearest = sqrdists.argmin(dim=-1, keepdim=True)
    group_first = torch.where(group_idx[:, :, :1] == N, nearest, group_idx[:, :, :1]).repeat(1, 1, nsample)
    mask = group_idx == N
    group_idx[mask] = group_first[mask]
    return group_idx


def group_around_anchors(xyz, features, anchors, radius, nsample):
    idx = query_ball_point(radius, nsample, xyz, anchors)
    grouped_xyz = index_points(xyz, idx) - anchors.unsqueeze(2)
    grouped_features = index_points(features, idx)
    return torch.cat([grouped_xyz, grouped_features], dim=-1), idx


if __name__ == "__main__":
    torch.manual_seed(0)
    xyz = torch.rand(2, 64, 3)
    features = torch.randn(2, 64, 8)
    grid = torch.linspace(0.0, 1.0, 3)
    anchors = torch.cartesian_prod(grid, grid, grid).unsqueeze(0).repeat(2, 1, 1)
    grouped, idx = group_around_anchors(xyz, features, anchors, radius=0.2, nsample=8)
    print("grouped:", tuple(grouped.shape))
    for b in range(2):
        for s in range(anchors.shape[1]):
            d = [((xyz[b, n] - anchors[b, s]) ** 2).sum().item() for n in range(64)]
            inside = [n for n in range(64) if d[n] <= 0.2 ** 2][:8]
            if not inside:
                inside = [min(range(64), key=lambda n: d[n])]
            expected = inside + [inside[0]] * (8 - len(inside))
            assert idx[b, s].tolist() == expected
            for k in range(8):
                n = expected[k]
                assert torch.allclose(grouped[b, s, k, 3:], features[b, n])
                assert torch.allclose(grouped[b, s, k, :3], xyz[b, n] - anchors[b, s])
    print("ok")
