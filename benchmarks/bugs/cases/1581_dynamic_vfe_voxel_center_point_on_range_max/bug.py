import torch
from torch import nn


def dynamic_voxelize(points, voxel_size, point_cloud_range):
    """Voxel coordinates of every point.

    Args:
        points (torch.Tensor): Points of shape (N, 3 + C).
        voxel_size (list[float]): Size of a voxel along x, y, z.
        point_cloud_range (list[float]): [x_min, y_min, z_min, x_max, y_max, z_max].

    Returns:
        torch.Tensor: Integer coordinates (N, 3) ordered as (z, y, x).
    """
    pc_min = points.new_tensor(point_cloud_range[:3])
    vs = points.new_tensor(voxel_size)
    coors_xyz = torch.floor((points[:, :3] - pc_min) / vs).long()
    return coors_xyz[:, [2, 1, 0]]


class DynamicVFE(nn.Module):
    """Mean voxel features broadcast back to the points (dynamic voxelization).

    Args:
        voxel_size (list[float]): Size of a voxel.
        point_cloud_range (list[float]): Range covered by the voxel grid.
    """

    def __init__(self, voxel_size, point_cloud_range):
        super().__init__()
        self.voxel_size = voxel_size
        self.point_cloud_range = point_cloud_range
        grid = [
            round((point_cloud_range[i + 3] - point_cloud_range[i]) / voxel_size[i])
            for i in range(3)
        ]
        self.canvas_x, self.canvas_y, self.canvas_z = grid

    def voxel_mean(self, features, coors):
        """Average the points of each voxel.

        Args:
            features (torch.Tensor): Point features (N, C).
            coors (torch.Tensor): Batched voxel coordinates (N, 4) as (b, z, y, x).

        Returns:
            tuple[torch.Tensor]: Voxel means (M, C) and voxel coordinates (M, 4).
        """
        voxel_coors, inverse = torch.unique(coors, dim=0, return_inverse=True)
        summed = features.new_zeros(voxel_coors.size(0), features.size(1)).index_add_(0, inverse, features)
        count = torch.bincount(inverse, minlength=voxel_coors.size(0)).clamp(min=1)
        return summed / count[:, None], voxel_coors

    def map_voxel_center_to_point(self, pts_coors, voxel_mean, voxel_coors):
        """Map the voxel means back to the points.

        Args:
            pts_coors (torch.Tensor): Voxel coordinates of the points (N, 4).
            voxel_mean (torch.Tensor): Voxel features (M, C).
            voxel_coors (torch.Tensor): Voxel coordinates (M, 4).

        Returns:
            torch.Tensor: Features of the voxel each point falls in (N, C).
        """
        canvas_y, canvas_x, canvas_z = self.canvas_y, self.canvas_x, self.canvas_z
        batch_size = int(pts_coors[-1, 0]) + 1
        canvas_len = canvas_z * canvas_y * canvas_x * batch_size
        canvas = voxel_mean.new_full((canvas_len,), -1, dtype=torch.long)
        indices = (voxel_coors[:, 0] * canvas_z * canvas_y * canvas_x
                   + voxel_coors[:, 1] * canvas_y * canvas_x
                   + voxel_coors[:, 2] * canvas_x + voxel_coors[:, 3])
        canvas[indices] = torch.arange(voxel_coors.size(0))
        voxel_index = (pts_coors[:, 0] * canvas_z * canvas_y * canvas_x
                       + pts_coors[:, 1] * canvas_y * canvas_x
                       + pts_coors[:, 2] * canvas_x + pts_coors[:, 3])
        voxel_inds = canvas[voxel_index]
        return voxel_mean[voxel_inds]

    def forward(self, points, coors):
        voxel_mean, voxel_coors = self.voxel_mean(points[:, 3:], coors)
        center_feats = self.map_voxel_center_to_point(coors, voxel_mean, voxel_coors)
        return torch.cat([points[:, 3:], center_feats], dim=1)


def voxelize_batch(points_list, voxel_size, point_cloud_range):
    """Concatenate the samples of a batch with their batch index."""
    coors, pts = [], []
    for i, p in enumerate(points_list):
        c = dynamic_voxelize(p, voxel_size, point_cloud_range)
        coors.append(torch.cat([c.new_full((c.size(0), 1), i), c], dim=1))
        pts.append(p)
    return torch.cat(pts), torch.cat(coors)


if __name__ == "__main__":
    torch.manual_seed(0)
    voxel_size = [0.5, 0.5, 1.0]
    pc_range = [0.0, -2.0, -1.0, 4.0, 2.0, 1.0]
    sample = torch.cat([torch.rand(60, 3) * torch.tensor([4.0, 4.0, 2.0]) + torch.tensor([0.0, -2.0, -1.0]),
                        torch.rand(60, 2)], dim=1)
    sample[-1, 2] = 1.0  # a point lying exactly on the z upper bound of the range
    points, coors = voxelize_batch([sample], voxel_size, pc_range)
    vfe = DynamicVFE(voxel_size, pc_range)
    print(vfe(points, coors).shape)
