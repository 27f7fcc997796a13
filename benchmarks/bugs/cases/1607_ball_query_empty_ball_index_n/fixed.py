import torch


def square_distance(src, dst):
    """
    Input:
        src: source points, [B, N, C]
        dst: target points, [B, M, C]
    Output:
        dist: per-point square distance, [B, N, M]
    """
    return ((src.unsqueeze(2) - dst.unsqueeze(1)) ** 2).sum(-1)


def index_points(points, idx):
    """
    Input:
        points: input points data, [B, N, C]
        idx: sample index data, [B, S] or [B, S, K]
    Return:
        new_points: indexed points data, [B, S, C] or [B, S, K, C]
    """
    B = points.shape[0]
    batch = torch.arange(B, device=points.device).view(B, *([1] * (idx.dim() - 1))).expand_as(idx)
    return points[batch, idx, :]


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
    _, S, _ = new_xyz.shape
    group_idx = torch.arange(N, device=xyz.device).view(1, 1, N).repeat(B, S, 1)
    sqrdists = square_distance(new_xyz, xyz)
    group_idx[sqrdists > radius ** 2] = N
    group_idx = group_idx.sort(dim=-1)[0][:, :, :nsample]
    group_first = group_idx[:, :, :1].repeat(1, 1, nsample)
    mask = group_idx == N
    group_idx[mask] = group_first[mask]
    nearest = sqrdists.argmin(dim=-1, keepdim=True).expand(-1, -1, nsample)
    group_idx = torch.where(group_idx == N, nearest, group_idx)
    return group_idx


def group_on_grid(xyz, feats, grid, radius, nsample):
    """
    Input:
        xyz: point positions, [B, N, 3]
        feats: point features, [B, N, D]
        grid: voxel-center query positions, [B, S, 3]
    Return:
        grouped: relative positions and features, [B, S, nsample, 3 + D]
    """
    idx = query_ball_point(radius, nsample, xyz, grid)
    rel = index_points(xyz, idx) - grid.unsqueeze(2)
    return torch.cat([rel, index_points(feats, idx)], dim=-1)


if __name__ == "__main__":
    torch.manual_seed(0)
    xyz = torch.rand(2, 64, 3) * 0.5
    feats = torch.randn(2, 64, 4)
    axis = torch.linspace(0.0, 1.0, 3)
    grid = torch.stack(torch.meshgrid(axis, axis, axis, indexing="ij"), -1).view(1, -1, 3).repeat(2, 1, 1)
    grouped = group_on_grid(xyz, feats, grid, radius=0.2, nsample=8)
    B, N, _ = xyz.shape
    S = grid.shape[1]
    for b in range(B):
        for s in range(S):
            d = [sum((xyz[b, n, c].item() - grid[b, s, c].item()) ** 2 for c in range(3)) for n in range(N)]
            inside = [n for n in range(N) if d[n] <= 0.2 ** 2][:8]
            if not inside:
                inside = [min(range(N), key=lambda n: d[n])]
            inside = inside + [inside[0]] * (8 - len(inside))
            for k, n in enumerate(inside):
                rel = xyz[b, n] - grid[b, s]
                assert torch.allclose(grouped[b, s, k, :3], rel, atol=1e-6)
                assert torch.equal(grouped[b, s, k, 3:], feats[b, n])
    print("ok")
