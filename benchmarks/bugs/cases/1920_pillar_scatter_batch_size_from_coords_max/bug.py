import torch
import torch.nn as nn


class PointPillarScatter(nn.Module):
    def __init__(self, num_bev_features, grid_size):
        super().__init__()
        self.num_bev_features = num_bev_features
        self.nx, self.ny, self.nz = grid_size
        assert self.nz == 1

    def forward(self, batch_dict):
        pillar_features, coords = batch_dict['pillar_features'], batch_dict['voxel_coords']  # (M, C), (M, 4) [b, z, y, x]
        batch_spatial_features = []
        batch_size = coords[:, 0].max().int().item() + 1
        for batch_idx in range(batch_size):
            spatial_feature = torch.zeros(
                self.num_bev_features,
                self.nz * self.nx * self.ny,
                dtype=pillar_features.dtype,
                device=pillar_features.device)

            batch_mask = coords[:, 0] == batch_idx
            this_coords = coords[batch_mask, :]
            indices = this_coords[:, 1] + this_coords[:, 2] * self.nx + this_coords[:, 3]
            indices = indices.type(torch.long)
            pillars = pillar_features[batch_mask, :]  # (M_b, C)
            pillars = pillars.t()
            spatial_feature[:, indices] = pillars
            batch_spatial_features.append(spatial_feature)

        batch_spatial_features = torch.stack(batch_spatial_features, 0)  # (B, C, nz * ny * nx)
        batch_spatial_features = batch_spatial_features.view(batch_size, self.num_bev_features * self.nz, self.ny, self.nx)
        batch_dict['spatial_features'] = batch_spatial_features
        return batch_dict


class AnchorHeadSingle(nn.Module):
    def __init__(self, input_channels, num_anchors_per_location, num_class):
        super().__init__()
        self.conv_cls = nn.Conv2d(input_channels, num_anchors_per_location * num_class, kernel_size=1)

    def forward(self, batch_dict):
        cls_preds = self.conv_cls(batch_dict['spatial_features'])  # (B, A * K, ny, nx)
        batch_dict['cls_preds'] = cls_preds.permute(0, 2, 3, 1).contiguous()  # (B, ny, nx, A * K)
        return batch_dict


def sigmoid_focal_cls_loss(cls_preds, one_hot_targets, alpha=0.25, gamma=2.0):
    pred_sigmoid = torch.sigmoid(cls_preds)
    alpha_weight = one_hot_targets * alpha + (1 - one_hot_targets) * (1 - alpha)
    pt = one_hot_targets * (1.0 - pred_sigmoid) + (1.0 - one_hot_targets) * pred_sigmoid
    focal_weight = alpha_weight * torch.pow(pt, gamma)
    bce = torch.clamp(cls_preds, min=0) - cls_preds * one_hot_targets + torch.log1p(torch.exp(-torch.abs(cls_preds)))
    return (focal_weight * bce).sum() / one_hot_targets.shape[0]


if __name__ == "__main__":
    torch.manual_seed(0)
    nx, ny, C, num_class, num_anchors = 8, 6, 16, 3, 2
    scatter = PointPillarScatter(C, (nx, ny, 1))
    head = AnchorHeadSingle(C, num_anchors, num_class)
    # four sweeps in the batch; the last one has no pillar left after the range crop
    pillars_per_frame = [5, 7, 4, 0]
    coords = torch.cat([
        torch.stack([torch.full((n,), b), torch.zeros(n, dtype=torch.long), cells // nx, cells % nx], dim=1)
        for b, n, cells in ((b, n, torch.randperm(ny * nx)[:n]) for b, n in enumerate(pillars_per_frame))
    ]).int()
    batch_dict = {
        'batch_size': len(pillars_per_frame),
        'pillar_features': torch.randn(coords.shape[0], C),
        'voxel_coords': coords,
    }
    batch_dict = head(scatter(batch_dict))
    box_cls_labels = torch.randint(0, num_class + 1, (batch_dict['batch_size'], ny, nx, num_anchors))
    one_hot = torch.zeros(*box_cls_labels.shape, num_class + 1).scatter_(-1, box_cls_labels.unsqueeze(-1), 1.0)[..., 1:]
    one_hot = one_hot.reshape(batch_dict['batch_size'], ny, nx, num_anchors * num_class)
    loss = sigmoid_focal_cls_loss(batch_dict['cls_preds'], one_hot)
    print("cls loss:", float(loss))
