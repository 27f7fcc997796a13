import torch
import torch.nn as nn


class MultiScaleCenterSampler(nn.Module):
    """Collects k x k neighbourhoods around detected centers on every BEV scale."""

    def __init__(self, kernel_size=(3, 3, 1), obj_num=8):
        super().__init__()
        self.kernel_size = kernel_size
        self.obj_num = obj_num

    def select_centers(self, heatmap):
        # heatmap: [B, num_cls, H, W]
        batch, _, H, W = heatmap.shape
        scores = heatmap.max(dim=1)[0].reshape(batch, H * W)  # [B, H*W]
        order = scores.topk(self.obj_num, dim=1)[1]  # [B, K]
        y_coor = order // W
        x_coor = order % W
        return torch.stack([x_coor, y_coor], dim=2)  # [B, K, 2] as (x, y)

    def forward(self, center_pos, feats):
        # center_pos: [B, K, 2] (x, y) on the finest scale
        # feats: list of [B, C, H / 2**i, W / 2**i]
        batch, channels, H, W = feats[0].shape
        center_num = center_pos.shape[1]
        neighbor_feats = []
        for i, k in enumerate(self.kernel_size):
            offsets = torch.arange(-(k // 2), k // 2 + 1)
            offsets = torch.stack(torch.meshgrid(offsets, offsets, indexing="ij"), dim=0).flatten(1).t()  # [k*k, 2]
            coords = center_pos[:, :, None, :] // (2**i) + offsets[None, None]  # [B, K, k*k, 2]
            coords = torch.clamp(coords, min=0, max=H // (2**i) - 1)  # keep inside the map
            feat_id = coords[..., 1] * (W // (2**i)) + coords[..., 0]  # [B, K, k*k]
            feat_id = feat_id.reshape(batch, -1)  # [B, K*k*k]
            flat = feats[i].reshape(batch, channels, -1).permute(0, 2, 1)  # [B, H*W, C]
            batch_id = torch.arange(batch)[:, None].expand_as(feat_id)  # [B, K*k*k]
            selected = flat[batch_id, feat_id]  # [B, K*k*k, C]
            neighbor_feats.append(selected.reshape(batch, center_num, k * k, channels))
        return torch.cat(neighbor_feats, dim=2)  # [B, K, sum(k*k), C]


if __name__ == "__main__":
    torch.manual_seed(0)
    sampler = MultiScaleCenterSampler(kernel_size=(3, 3, 1), obj_num=8)
    heatmap = torch.rand(2, 3, 160, 96) * 0.1  # [B, num_cls, H, W]; y range longer than x range
    peaks = [(0, 1, 40, 20), (0, 0, 158, 95), (1, 2, 10, 90), (1, 1, 120, 5)]
    for b, c, y, x in peaks:
        heatmap[b, c, y, x] = 1.0
    feats = [torch.randn(2, 16, 160 // 2**i, 96 // 2**i) for i in range(3)]
    centers = sampler.select_centers(heatmap)
    out = sampler(centers, feats)
    print("neighbour features:", tuple(out.shape))
