import math

import torch
import torch.nn as nn


def angle_to_rotation_matrix(angle):
    # angle: [B, N] -> [B, N, 2, 2]
    cos_a, sin_a = torch.cos(angle), torch.sin(angle)
    return torch.stack([cos_a, -sin_a, sin_a, cos_a], dim=-1).view(*angle.shape, 2, 2)


class BlobResponseDetector(nn.Module):
    """Keeps the strongest scale-space extrema of each image and turns them into local affine frames."""

    def __init__(self, num_features=5, mr_size=6.0):
        super().__init__()
        self.num_features = num_features
        self.mr_size = mr_size

    def select_best(self, response_max, coord_max):
        # response_max: [B, L, H, W], coord_max: [B, 3, L, H, W] (scale, x, y)
        batch = response_max.shape[0]
        scores = response_max.reshape(batch, -1)  # [B, N]
        coords = coord_max.reshape(batch, 3, -1).transpose(1, 2)  # [B, N, 3]

        if scores.shape[1] > self.num_features:
            best_scores, idxs = scores.topk(self.num_features, dim=1)  # [B, K]
            best_coords = coords[:, idxs.view(-1)]  # [B, K, 3]
        else:
            best_scores = scores
            best_coords = coords
        return best_scores, best_coords

    def forward(self, response_max, coord_max):
        resp, coords = self.select_best(response_max, coord_max)
        B, N = resp.size()
        rotmat = angle_to_rotation_matrix(torch.zeros(B, N))  # [B, N, 2, 2]
        lafs = torch.cat([self.mr_size * coords[:, :, 0].view(B, N, 1, 1) * rotmat,
                          coords[:, :, 1:3].view(B, N, 2, 1)], dim=3)  # [B, N, 2, 3]
        return resp, lafs


if __name__ == "__main__":
    torch.manual_seed(0)
    B, L, H, W = 2, 3, 8, 8
    response_max = torch.rand(B, L, H, W)
    scale = torch.rand(B, 1, L, H, W) * 4 + 1
    xy = torch.rand(B, 2, L, H, W) * 32
    coord_max = torch.cat([scale, xy], dim=1)

    det = BlobResponseDetector(num_features=5)
    resp, lafs = det(response_max, coord_max)

    flat_r = response_max.view(B, -1)
    flat_c = coord_max.view(B, 3, -1)
    for b in range(B):
        order = sorted(range(flat_r.size(1)), key=lambda i: -flat_r[b, i].item())[:5]
        for k, i in enumerate(order):
            s, x, y = flat_c[b, 0, i].item(), flat_c[b, 1, i].item(), flat_c[b, 2, i].item()
            assert math.isclose(lafs[b, k, 0, 0].item(), 6.0 * s, rel_tol=1e-5)
            assert math.isclose(lafs[b, k, 0, 2].item(), x, rel_tol=1e-5)
            assert math.isclose(lafs[b, k, 1, 2].item(), y, rel_tol=1e-5)
    print("lafs:", tuple(lafs.shape))
