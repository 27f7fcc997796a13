# Point-cloud helpers in the style of a 3D detection codebase: dynamic voxelization,
# voxel mean pooling, pillar scatter to a BEV canvas, voxel-to-point feature lookup,
# farthest point sampling and neighbourhood grouping.
import torch
from torch import nn


def voxelize_dynamic(points, voxel_size, point_cloud_range, batch_idx):
    """Assign every point to a voxel without a per-voxel point cap.

    Args:
        points (torch.Tensor): Points of shape (N, 3 + C) with xyz first.
        voxel_size (list[float]): Voxel size ``(vx, vy, vz)``.
        point_cloud_range (list[float]): ``(x_min, y_min, z_min, x_max, y_max, z_max)``.
        batch_idx (torch.Tensor): Sample id of each point, shape (N,).

    Returns:
        tuple[torch.Tensor]:
            - coors (torch.Tensor): Unique voxel coordinates ``(batch, z, y, x)``, shape (M, 4).
            - point2voxel (torch.Tensor): Voxel id of each kept point, shape (N',).
            - keep (torch.Tensor): Boolean mask of points inside the range, shape (N,).
    """
    pc_min = points.new_tensor(point_cloud_range[:3])
    pc_max = points.new_tensor(point_cloud_range[3:])
    size = points.new_tensor(voxel_size)
    keep = ((points[:, :3] >= pc_min) & (points[:, :3] < pc_max)).all(dim=1)
    xyz = points[keep, :3]
    grid = torch.div(xyz - pc_min, size, rounding_mode='floor').long()  # (N', 3) as x, y, z
    coors_all = torch.cat([batch_idx[keep, None], grid[:, [2, 1, 0]]], dim=1)
    coors, point2voxel = torch.unique(coors_all, dim=0, return_inverse=True)
    return coors, point2voxel, keep


def voxel_mean(features, point2voxel, num_voxels):
    """Average point features inside each voxel.

    Args:
        features (torch.Tensor): Point features of shape (N, C).
        point2voxel (torch.Tensor): Voxel id of each point, shape (N,).
        num_voxels (int): Number of voxels M.

    Returns:
        torch.Tensor: Mean features of shape (M, C).
    """
    sums = features.new_zeros(num_voxels, features.shape[1]).index_add_(0, point2voxel, features)
    counts = torch.bincount(point2voxel, minlength=num_voxels).clamp(min=1)
    return sums / counts[:, None].to(features.dtype)


def voxel_max(features, point2voxel, num_voxels):
    """Channel-wise max of point features inside each voxel, shape (M, C)."""
    index = point2voxel[:, None].expand(-1, features.shape[1])
    out = features.new_full((num_voxels, features.shape[1]), float('-inf'))
    return out.scatter_reduce(0, index, features, reduce='amax', include_self=False)


class PillarScatter(nn.Module):
    """Scatter pillar features onto a dense BEV pseudo image.

    Args:
        in_channels (int): Channels of the pillar features.
        output_shape (list[int]): ``(ny, nx)`` of the canvas.
    """

    def __init__(self, in_channels, output_shape):
        super().__init__()
        self.in_channels = in_channels
        self.ny, self.nx = output_shape

    def forward(self, voxel_features, coors, batch_size):
        """
        Args:
            voxel_features (torch.Tensor): (M, C).
            coors (torch.Tensor): (M, 4) as ``(batch, z, y, x)``.
            batch_size (int): Number of samples.

        Returns:
            torch.Tensor: (B, C, ny, nx).
        """
        canvas = voxel_features.new_zeros(batch_size, self.in_channels, self.ny * self.nx)
        flat = coors[:, 2].long() * self.nx + coors[:, 3].long()
        canvas[coors[:, 0].long(), :, flat] = voxel_features
        return canvas.view(batch_size, self.in_channels, self.ny, self.nx)


def voxel_to_point(voxel_features, point2voxel):
    """Broadcast voxel features back to the points, (M, C) -> (N, C)."""
    return voxel_features.index_select(0, point2voxel)


def farthest_point_sample(xyz, num_samples):
    """Iterative farthest point sampling.

    Args:
        xyz (torch.Tensor): (B, N, 3).
        num_samples (int): Number of centres to keep.

    Returns:
        torch.Tensor: Indices of shape (B, num_samples).
    """
    B, N, _ = xyz.shape
    idx = torch.zeros(B, num_samples, dtype=torch.long)
    dist = torch.full((B, N), float('inf'))
    farthest = torch.zeros(B, dtype=torch.long)
    for i in range(num_samples):
        idx[:, i] = farthest
        centre = xyz.gather(1, farthest[:, None, None].expand(-1, 1, 3))  # (B, 1, 3)
        dist = torch.minimum(dist, ((xyz - centre) ** 2).sum(-1))
        farthest = dist.argmax(dim=1)
    return idx


def gather_points(features, idx):
    """Select points along dim 2 of channel-first features.

    Args:
        features (torch.Tensor): (B, C, N).
        idx (torch.Tensor): (B, M).

    Returns:
        torch.Tensor: (B, C, M).
    """
    return features.gather(2, idx[:, None, :].expand(-1, features.shape[1], -1))


def group_points(features, group_idx):
    """Group neighbour features for every centre.

    Args:
        features (torch.Tensor): (B, C, N).
        group_idx (torch.Tensor): (B, M, K) neighbour indices into N.

    Returns:
        torch.Tensor: (B, C, M, K).
    """
    B, C, _ = features.shape
    _, M, K = group_idx.shape
    flat = group_idx.reshape(B, 1, M * K).expand(B, C, M * K)
    return features.gather(2, flat).view(B, C, M, K)


def knn_query(k, xyz, centres):
    """k nearest neighbours of each centre, (B, M, k) indices into xyz (B, N, 3)."""
    d = torch.cdist(centres, xyz)
    return d.topk(k, dim=-1, largest=False).indices


if __name__ == "__main__":
    torch.manual_seed(0)
    pc_range = [0.0, -4.0, -2.0, 8.0, 4.0, 2.0]
    voxel_size = [1.0, 1.0, 4.0]
    points = torch.rand(300, 4) * torch.tensor([9.0, 9.0, 4.0, 1.0]) + torch.tensor([-0.5, -4.5, -2.0, 0.0])
    batch_idx = torch.randint(0, 2, (300,))

    coors, p2v, keep = voxelize_dynamic(points, voxel_size, pc_range, batch_idx)
    feats = points[keep]
    mean = voxel_mean(feats, p2v, coors.shape[0])
    vmax = voxel_max(feats, p2v, coors.shape[0])
    for v in range(coors.shape[0]):
        members = [feats[i] for i in range(feats.shape[0]) if int(p2v[i]) == v]
        assert torch.allclose(mean[v], torch.stack(members).mean(0), atol=1e-6)
        assert torch.equal(vmax[v], torch.stack(members).max(0).values)

    scatter = PillarScatter(in_channels=4, output_shape=[8, 8])
    bev = scatter(mean, coors, batch_size=2)
    for v, (b, _, y, x) in enumerate(coors.tolist()):
        assert torch.equal(bev[b, :, y, x], mean[v])
    assert int((bev.abs().sum(1) > 0).sum()) == coors.shape[0]

    back = voxel_to_point(mean, p2v)
    for i in range(feats.shape[0]):
        assert torch.equal(back[i], mean[int(p2v[i])])

    xyz = torch.rand(2, 64, 3)
    centres_idx = farthest_point_sample(xyz, 8)
    assert all(len(set(row.tolist())) == 8 for row in centres_idx)
    point_feats = torch.randn(2, 5, 64)
    centre_feats = gather_points(point_feats, centres_idx)
    centres = gather_points(xyz.transpose(1, 2), centres_idx).transpose(1, 2)
    nbr = knn_query(4, xyz, centres)
    grouped = group_points(point_feats, nbr)
    for b in range(2):
        for m in range(8):
            assert torch.equal(centre_feats[b, :, m], point_feats[b, :, centres_idx[b, m]])
            assert torch.equal(centres[b, m], xyz[b, centres_idx[b, m]])
            for k in range(4):
                assert torch.equal(grouped[b, :, m, k], point_feats[b, :, nbr[b, m, k]])
            assert int(nbr[b, m, 0]) == int(centres_idx[b, m])
    print("ok")
