import torch
import torch.nn as nn


def index_points(points, idx):
    """
    Args:
        points (torch.FloatTensor of shape (B, N, C)): input point features.
        idx (torch.LongTensor of shape (B, S) or (B, S, K)): indices into the N points.

    Returns:
        torch.FloatTensor of shape (B, S, C) or (B, S, K, C).
    """
    B = points.shape[0]
    flat = idx.reshape(B, -1)
    gathered = points.gather(1, flat.unsqueeze(-1).expand(-1, -1, points.size(-1)))
    return gathered.view(*idx.shape, points.size(-1))


def farthest_point_sample(xyz, npoint):
    """
    Args:
        xyz (torch.FloatTensor of shape (B, N, 3))
        npoint (int): number of centroids.

    Returns:
        torch.LongTensor of shape (B, npoint): centroid indices.
    """
    B, N, _ = xyz.shape
    centroids = torch.zeros(B, npoint, dtype=torch.long)
    distance = torch.full((B, N), 1e10)
    farthest = torch.zeros(B, dtype=torch.long)
    batch_indices = torch.arange(B)
    for i in range(npoint):
        centroids[:, i] = farthest
        centroid = xyz[batch_indices, farthest, :].view(B, 1, 3)
        distance = torch.minimum(distance, ((xyz - centroid) ** 2).sum(-1))
        farthest = distance.argmax(-1)
    return centroids


def query_ball_point(radius, nsample, xyz, new_xyz):
    """
    Args:
        radius (float), nsample (int)
        xyz (torch.FloatTensor of shape (B, N, 3)): all points.
        new_xyz (torch.FloatTensor of shape (B, S, 3)): query centroids.

    Returns:
        torch.LongTensor of shape (B, S, nsample): the first nsample points within the radius (in index order),
        padded with the first one found.
    """
    B, N, _ = xyz.shape
    S = new_xyz.shape[1]
    group_idx = torch.arange(N).view(1, 1, N).repeat(B, S, 1)
    sqrdists = torch.cdist(new_xyz, xyz) ** 2
    group_idx[sqrdists > radius ** 2] = N
    group_idx = group_idx.sort(dim=-1)[0][:, :, :nsample]
    group_first = group_idx[:, :, :1].expand(-1, -1, nsample)
    mask = group_idx == N
    group_idx[mask] = group_first[mask]
    return group_idx


class SetAbstraction(nn.Module):
    def __init__(self, npoint, radius, nsample, in_channel, out_channel):
        super().__init__()
        self.npoint, self.radius, self.nsample = npoint, radius, nsample
        self.mlp = nn.Sequential(nn.Linear(in_channel + 3, out_channel), nn.ReLU())

    def forward(self, xyz, points):
        """
        Args:
            xyz (torch.FloatTensor of shape (B, N, 3)), points (torch.FloatTensor of shape (B, N, D))

        Returns:
            new_xyz (torch.FloatTensor of shape (B, S, 3)), new_points (torch.FloatTensor of shape (B, S, out_channel))
        """
        fps_idx = farthest_point_sample(xyz, self.npoint)
        new_xyz = index_points(xyz, fps_idx)
        idx = query_ball_point(self.radius, self.nsample, xyz, new_xyz)
        grouped_xyz = index_points(xyz, idx) - new_xyz.unsqueeze(2)
        grouped = torch.cat([grouped_xyz, index_points(points, idx)], dim=-1)
        return new_xyz, self.mlp(grouped).max(dim=2)[0], idx, fps_idx


if __name__ == "__main__":
    torch.manual_seed(0)
    B, N, D = 2, 20, 4
    xyz, points = torch.rand(B, N, 3), torch.randn(B, N, D)
    sa = SetAbstraction(npoint=5, radius=0.4, nsample=3, in_channel=D, out_channel=6)
    with torch.no_grad():
        new_xyz, new_points, idx, fps_idx = sa(xyz, points)
    for b in range(B):
        for s in range(5):
            c = fps_idx[b, s].item()
            assert new_xyz[b, s].tolist() == xyz[b, c].tolist()
            inside = [n for n in range(N)
                      if sum((xyz[b, n, d].item() - xyz[b, c, d].item()) ** 2 for d in range(3)) <= 0.4 ** 2]
            chosen = inside[:3] + [inside[0]] * (3 - len(inside[:3]))
            assert idx[b, s].tolist() == chosen
            feats = []
            for n in chosen:
                rel = [xyz[b, n, d].item() - xyz[b, c, d].item() for d in range(3)]
                feats.append(sa.mlp(torch.tensor(rel + points[b, n].tolist())))
            for o in range(6):
                assert abs(new_points[b, s, o].item() - max(f[o].item() for f in feats)) < 1e-5
    print("ok")
