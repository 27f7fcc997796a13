"""Dynamic pillar encoder, BEV scatter and CenterPoint-style head gathering for a toy LiDAR detector."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class DynamicPillarEncoder(nn.Module):
    """Mean-pools points into pillars and scatters the pillars into a dense BEV canvas.

    Args:
        point_cloud_range: [x_min, y_min, z_min, x_max, y_max, z_max]; the max is exclusive.
        pillar_size: (sx, sy) in metres.
        in_channels: number of per-point features (x, y, z, intensity, ...).
        out_channels: pillar feature size.
    """

    def __init__(self, point_cloud_range, pillar_size, in_channels, out_channels):
        super().__init__()
        self.register_buffer("pc_min", torch.tensor(point_cloud_range[:2]))
        self.register_buffer("pc_max", torch.tensor(point_cloud_range[3:5]))
        self.register_buffer("pillar_size", torch.tensor(pillar_size))
        grid = ((self.pc_max - self.pc_min) / self.pillar_size).round().long()
        self.nx, self.ny = int(grid[0]), int(grid[1])
        self.lin = nn.Linear(in_channels + 2, out_channels)

    def forward(self, points, batch_size):
        """
        Args:
            points: (N, 1 + C) rows of [batch_idx, x, y, z, ...].
            batch_size: number of samples in the batch.

        Returns:
            bev: (B, out_channels, nx, ny) pseudo image.
        """
        xy = points[:, 1:3]
        inside = ((xy >= self.pc_min) & (xy < self.pc_max)).all(dim=1)
        points = points[inside]
        coords = torch.floor((points[:, 1:3] - self.pc_min) / self.pillar_size).long()
        coords = torch.minimum(coords, torch.tensor([self.nx - 1, self.ny - 1]))  # float round-off at the edge
        merged = points[:, 0].long() * (self.nx * self.ny) + coords[:, 0] * self.ny + coords[:, 1]
        unq, inv = torch.unique(merged, return_inverse=True)  # inv: (N,) pillar of every point

        feats = points[:, 1:]
        sums = feats.new_zeros(unq.numel(), feats.shape[1])
        sums.scatter_add_(0, inv.unsqueeze(1).expand_as(feats), feats)
        counts = feats.new_zeros(unq.numel()).index_add_(0, inv, torch.ones_like(inv, dtype=feats.dtype))
        mean = sums / counts.unsqueeze(1)

        centre = (coords.to(feats.dtype) + 0.5) * self.pillar_size + self.pc_min
        offset = points[:, 1:3] - centre
        point_feat = torch.cat([feats - mean.index_select(0, inv), offset], dim=1)
        point_feat = F.relu(self.lin(point_feat))  # (N, D)

        pillar_feat = point_feat.new_full((unq.numel(), point_feat.shape[1]), float("-inf"))
        pillar_feat = pillar_feat.scatter_reduce(
            0, inv.unsqueeze(1).expand_as(point_feat), point_feat, reduce="amax", include_self=False
        )

        canvas = point_feat.new_zeros(batch_size * self.nx * self.ny, point_feat.shape[1])
        canvas.index_copy_(0, unq, pillar_feat)  # pillar ids are unique
        return canvas.view(batch_size, self.nx, self.ny, -1).permute(0, 3, 1, 2).contiguous()


def gather_feat(feat, ind):
    """Values of a dense head output at flattened BEV positions.

    Args:
        feat: (B, C, H, W) head output.
        ind: (B, K) flat indices y * W + x of the target centres.

    Returns:
        (B, K, C) values at those positions.
    """
    b, c = feat.shape[:2]
    feat = feat.view(b, c, -1).permute(0, 2, 1)  # (B, H*W, C)
    return feat.gather(1, ind.unsqueeze(2).expand(-1, -1, c))


def reg_l1_loss(output, mask, ind, target):
    # output: (B, C, H, W), mask: (B, K) 0/1, ind: (B, K), target: (B, K, C)
    pred = gather_feat(output, ind)
    m = mask.unsqueeze(2).expand_as(pred).float()
    return (F.l1_loss(pred * m, target * m, reduction="sum") / (m.sum() + 1e-4))


if __name__ == "__main__":
    torch.manual_seed(0)
    pcr = [0.0, -4.0, -3.0, 8.0, 4.0, 1.0]
    enc = DynamicPillarEncoder(pcr, (1.0, 1.0), in_channels=4, out_channels=6)
    clouds = []
    for b in range(2):
        xyz = torch.rand(50, 3) * torch.tensor([9.0, 9.0, 4.0]) + torch.tensor([-0.5, -4.5, -3.0])
        clouds.append(torch.cat([torch.full((50, 1), float(b)), xyz, torch.rand(50, 1)], dim=1))
    points = torch.cat(clouds)
    with torch.no_grad():
        bev = enc(points, batch_size=2)

        ref = torch.zeros_like(bev)
        groups = {}
        for p in points:
            x, y = p[1].item(), p[2].item()
            if not (pcr[0] <= x < pcr[3] and pcr[1] <= y < pcr[4]):
                continue
            key = (int(p[0]), int((x - pcr[0]) // 1.0), int((y - pcr[1]) // 1.0))
            groups.setdefault(key, []).append(p)
        for (b, ix, iy), pts in groups.items():
            pts = torch.stack(pts)
            mean = pts[:, 1:].mean(0)
            centre = torch.tensor([ix + 0.5 + pcr[0], iy + 0.5 + pcr[1]])
            f = torch.cat([pts[:, 1:] - mean, pts[:, 1:3] - centre], dim=1)
            ref[b, :, ix, iy] = F.relu(enc.lin(f)).max(0).values
    assert torch.allclose(bev, ref, atol=1e-5)

    head = torch.randn(2, 3, 8, 8)
    ind = torch.tensor([[9, 40, 63], [0, 17, 17]])
    mask = torch.tensor([[1, 1, 1], [1, 1, 0]])
    target = torch.randn(2, 3, 3)
    vals = gather_feat(head, ind)
    for b in range(2):
        for k in range(3):
            y, x = divmod(int(ind[b, k]), 8)
            assert torch.equal(vals[b, k], head[b, :, y, x])
    loss = reg_l1_loss(head, mask, ind, target)
    print("ok", tuple(bev.shape), round(loss.item(), 4))
