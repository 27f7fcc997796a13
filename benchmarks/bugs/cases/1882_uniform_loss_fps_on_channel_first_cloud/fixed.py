import math

import torch
import torch.nn as nn


def furthest_point_sample(xyz, npoint):
    B, N, _ = xyz.shape
    centroids = torch.zeros(B, npoint, dtype=torch.long)
    distance = torch.full((B, N), 1e10)
    farthest = torch.zeros(B, dtype=torch.long)
    batch_indices = torch.arange(B)
    for i in range(npoint):
        centroids[:, i] = farthest
        centroid = xyz[batch_indices, farthest, :].unsqueeze(1)
        dist = torch.sum((xyz - centroid) ** 2, -1)
        distance = torch.minimum(distance, dist)
        farthest = torch.max(distance, -1)[1]
    return centroids


def gather_operation(features, idx):
    C = features.shape[1]
    return features.gather(2, idx.unsqueeze(1).expand(-1, C, -1))


def ball_query(radius, nsample, xyz, new_xyz):
    dist2 = torch.cdist(new_xyz, xyz) ** 2
    order = dist2.argsort(dim=-1)[:, :, :nsample]
    within = dist2.gather(2, order) <= radius ** 2
    first = order[:, :, :1].expand_as(order)
    return torch.where(within, order, first)


def grouping_operation(features, idx):
    B, C, _ = features.shape
    _, M, K = idx.shape
    flat = idx.reshape(B, 1, M * K).expand(-1, C, -1)
    return features.gather(2, flat).view(B, C, M, K)


class UniformLoss(nn.Module):
    def __init__(self, percentage=(0.004, 0.006, 0.008, 0.010, 0.012), radius=1.0):
        super().__init__()
        self.percentage = percentage
        self.radius = radius

    def forward(self, pcd):
        B, N, C = pcd.shape
        npoint = int(N * 0.05)
        further_point_idx = furthest_point_sample(pcd.contiguous(), npoint)
        new_xyz = gather_operation(pcd.permute(0, 2, 1).contiguous(), further_point_idx)
        loss = 0.0
        for p in self.percentage:
            nsample = int(N * p)
            r = math.sqrt(p * self.radius)
            disk_area = math.pi * (self.radius ** 2) / N
            expect_len = math.sqrt(disk_area)

            idx = ball_query(r, nsample, pcd, new_xyz.permute(0, 2, 1).contiguous())
            grouped = grouping_operation(pcd.permute(0, 2, 1).contiguous(), idx)
            grouped = grouped.permute(0, 2, 3, 1).reshape(B * npoint, nsample, C)

            dist = torch.cdist(grouped, grouped)
            dist = dist + torch.eye(nsample) * 1e10
            uniform_dist = dist.min(dim=-1)[0]
            uniform_dist = torch.abs(uniform_dist + 1e-8).mean(dim=1)
            uniform_dist = (uniform_dist - expect_len) ** 2 / (expect_len + 1e-8)
            loss = loss + uniform_dist.mean() * math.pow(p * 100, 2)
        return loss / len(self.percentage), further_point_idx, new_xyz


if __name__ == "__main__":
    torch.manual_seed(0)
    pcd = torch.rand(2, 1024, 3)
    loss, seeds, new_xyz = UniformLoss()(pcd)

    # reference farthest point sampling, one cloud at a time
    for b in range(pcd.shape[0]):
        pts = pcd[b].tolist()
        chosen, far = [], 0
        mind = [1e10] * len(pts)
        for _ in range(seeds.shape[1]):
            chosen.append(far)
            c = pts[far]
            for j, q in enumerate(pts):
                d = sum((q[k] - c[k]) ** 2 for k in range(3))
                if d < mind[j]:
                    mind[j] = d
            far = max(range(len(pts)), key=lambda j: (mind[j], -j))
        assert seeds[b].tolist() == chosen
        for m, i in enumerate(chosen):
            assert torch.allclose(new_xyz[b, :, m], pcd[b, i])
    assert len(set(seeds[0].tolist())) == seeds.shape[1]
    assert torch.isfinite(loss)
    print("ok")
