import torch
from torch import nn
from torch.nn import functional as F


def get_paddings_indicator(actual_num, max_num, axis=0):
    """Create boolean mask by actually number of a padded tensor."""
    actual_num = torch.unsqueeze(actual_num, axis + 1)
    # tiled_actual_num: [N, M, 1]
    max_num_shape = [1] * len(actual_num.shape)
    max_num_shape[axis + 1] = -1
    max_num = torch.arange(max_num, dtype=torch.int, device=actual_num.device).view(max_num_shape)
    # tiled_actual_num: [[3,3,3,3,3], [4,4,4,4,4], [2,2,2,2,2]]
    # tiled_max_num: [[0,1,2,3,4], [0,1,2,3,4], [0,1,2,3,4]]
    paddings_indicator = actual_num.int() > max_num
    # paddings_indicator shape: [batch_size, max_num]
    return paddings_indicator


class PFNLayer(nn.Module):
    def __init__(self, in_channels, out_channels, use_norm=True, last_layer=False):
        super().__init__()
        self.last_vfe = last_layer
        if not self.last_vfe:
            out_channels = out_channels // 2
        self.units = out_channels
        self.linear = nn.Linear(in_channels, self.units, bias=not use_norm)
        self.norm = nn.BatchNorm1d(self.units, eps=1e-3, momentum=0.01) if use_norm else nn.Identity()

    def forward(self, inputs):
        x = self.linear(inputs)
        x = self.norm(x.permute(0, 2, 1).contiguous()).permute(0, 2, 1).contiguous()
        x = F.relu(x)
        x_max = torch.max(x, dim=1, keepdim=True)[0]
        if self.last_vfe:
            return x_max
        x_repeat = x_max.repeat(1, inputs.shape[1], 1)
        return torch.cat([x, x_repeat], dim=2)


class PillarFeatureNet(nn.Module):
    def __init__(self, num_input_features=4, num_filters=(64,), voxel_size=(0.2, 0.2, 4),
                 pc_range=(0, -40, -3, 70.4, 40, 1)):
        super().__init__()
        num_input_features += 5
        num_filters = [num_input_features] + list(num_filters)
        pfn_layers = []
        for i in range(len(num_filters) - 1):
            last_layer = i >= len(num_filters) - 2
            pfn_layers.append(PFNLayer(num_filters[i], num_filters[i + 1], last_layer=last_layer))
        self.pfn_layers = nn.ModuleList(pfn_layers)

        # Need pillar (voxel) size and x/y offset in order to calculate pillar offset
        self.vx = voxel_size[0]
        self.vy = voxel_size[1]
        self.x_offset = self.vx / 2 + pc_range[0]
        self.y_offset = self.vy / 2 + pc_range[1]

    def forward(self, features, num_voxels, coors):
        # features: [num_pillars, max_points, 4] (x, y, z, r); coors: [num_pillars, 4] (batch, z, y, x)

        # Find distance of x, y, and z from cluster center
        points_mean = features[:, :, :3].sum(dim=1, keepdim=True) / num_voxels.type_as(features).view(-1, 1, 1)
        f_cluster = features[:, :, :3] - points_mean

        # Find distance of x, y, and z from pillar center
        f_center = torch.zeros_like(features[:, :, :2])
        f_center[:, :, 0] = features[:, :, 0] - (coors[:, 3].float().unsqueeze(1) * self.vx + self.x_offset)
        f_center[:, :, 1] = features[:, :, 1] - (coors[:, 2].float().unsqueeze(1) * self.vy + self.y_offset)

        # Combine together feature decorations
        features_ls = [features, f_cluster, f_center]
        features = torch.cat(features_ls, dim=-1)

        # The feature decorations were calculated without regard to whether pillar was empty. Need to ensure that
        # empty pillars remain set to zeros.
        voxel_count = features.shape[1]
        mask = get_paddings_indicator(num_voxels, voxel_count, axis=0)
        mask = torch.unsqueeze(mask, -1).type_as(features)
        features *= mask

        # Forward pass through PFNLayers
        for pfn in self.pfn_layers:
            features = pfn(features)
        return features.squeeze(1)


def make_pillars(num_pillars=6, max_points=5, voxel_size=(0.2, 0.2), pc_range=(0, -40)):
    gen = torch.Generator().manual_seed(0)
    coors = torch.zeros(num_pillars, 4, dtype=torch.int32)
    coors[:, 2] = torch.randint(0, 400, (num_pillars,), generator=gen)  # y index
    coors[:, 3] = torch.randint(0, 352, (num_pillars,), generator=gen)  # x index
    num_points = torch.randint(1, max_points + 1, (num_pillars,), generator=gen)
    voxels = torch.zeros(num_pillars, max_points, 4)
    for p in range(num_pillars):
        n = int(num_points[p])
        x0 = coors[p, 3].item() * voxel_size[0] + pc_range[0]
        y0 = coors[p, 2].item() * voxel_size[1] + pc_range[1]
        voxels[p, :n, 0] = x0 + torch.rand(n, generator=gen) * voxel_size[0]
        voxels[p, :n, 1] = y0 + torch.rand(n, generator=gen) * voxel_size[1]
        voxels[p, :n, 2] = torch.rand(n, generator=gen) * 4 - 3
        voxels[p, :n, 3] = torch.rand(n, generator=gen)
    return voxels, num_points, coors


def reference_pillar_features(net, voxels, num_points, coors):
    layer = net.pfn_layers[0]
    bn = layer.norm
    out = []
    for p in range(voxels.shape[0]):
        n = int(num_points[p])
        mean = [sum(voxels[p, i, c].item() for i in range(n)) / n for c in range(3)]
        cx = coors[p, 3].item() * net.vx + net.x_offset
        cy = coors[p, 2].item() * net.vy + net.y_offset
        best = None
        for i in range(voxels.shape[1]):
            if i < n:
                pt = voxels[p, i].tolist()
                deco = pt + [pt[c] - mean[c] for c in range(3)] + [pt[0] - cx, pt[1] - cy]
            else:
                deco = [0.0] * 9
            h = layer.linear(torch.tensor(deco))
            h = (h - bn.running_mean) / torch.sqrt(bn.running_var + bn.eps) * bn.weight + bn.bias
            h = torch.relu(h)
            best = h if best is None else torch.maximum(best, h)
        out.append(best)
    return torch.stack(out)


if __name__ == "__main__":
    torch.manual_seed(0)
    voxels, num_points, coors = make_pillars()
    raw = voxels.clone()
    net = PillarFeatureNet().eval()
    with torch.no_grad():
        nn.init.normal_(net.pfn_layers[0].norm.running_mean, std=0.1)
        pillar_features = net(voxels, num_points, coors)
        ref = reference_pillar_features(net, raw, num_points, coors)
    assert torch.equal(voxels, raw), "input points were modified"
    assert torch.allclose(pillar_features, ref, atol=1e-4), (pillar_features - ref).abs().max()
    print("ok")
