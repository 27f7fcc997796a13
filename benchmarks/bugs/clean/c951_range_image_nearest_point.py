"""Range-image projection of a LiDAR sweep: nearest depth per pixel, per-pixel hit counts,
and the feature of the nearest point gathered back for every pixel."""
import math

import torch


def spherical_pixels(points, height, width, fov_up=0.2, fov_down=-0.4):
    # points: [N, 3] -> rows, cols: [N] int64, depth: [N]
    depth = points.norm(dim=1)
    yaw = torch.atan2(points[:, 1], points[:, 0])
    pitch = torch.asin(points[:, 2] / depth)
    cols = ((0.5 * (1.0 - yaw / math.pi)) * width).floor().long().clamp(0, width - 1)
    rows = ((1.0 - (pitch - fov_down) / (fov_up - fov_down)) * height).floor().long().clamp(0, height - 1)
    return rows, cols, depth


def range_image(points, feats, height, width):
    rows, cols, depth = spherical_pixels(points, height, width)
    flat = rows * width + cols                                         # [N]
    n_pix = height * width

    # nearest depth per pixel; empty pixels stay at +inf
    nearest = torch.full((n_pix,), float("inf")).scatter_reduce(0, flat, depth, reduce="amin", include_self=False)

    # how many points fell into each pixel (duplicates must add up)
    counts = torch.zeros(n_pix, dtype=torch.long)
    counts.index_put_((flat,), torch.ones_like(flat), accumulate=True)

    # index of the winning point per pixel: smallest point id among those at the nearest depth
    is_winner = depth == nearest.gather(0, flat)
    ids = torch.arange(points.size(0))
    cand = torch.where(is_winner, ids, torch.full_like(ids, points.size(0)))
    winner = torch.full((n_pix,), points.size(0), dtype=torch.long).scatter_reduce(0, flat, cand, reduce="amin", include_self=True)

    occupied = counts > 0
    padded = torch.cat([feats, feats.new_zeros(1, feats.size(1))])   # row N = empty pixel
    pixel_feats = padded.index_select(0, winner)                      # [n_pix, C]
    return nearest.view(height, width), counts.view(height, width), pixel_feats.view(height, width, -1), occupied.view(height, width)


if __name__ == "__main__":
    torch.manual_seed(0)
    H, W, C = 8, 32, 3
    pts = torch.randn(300, 3) * torch.tensor([8.0, 8.0, 0.8])
    pts = torch.cat([pts, pts[:40] * 1.5])                            # far copies share pixels with near points
    feats = torch.randn(pts.size(0), C)
    depth_img, count_img, feat_img, occ = range_image(pts, feats, H, W)

    rows, cols, depth = spherical_pixels(pts, H, W)
    best = {}
    cnt = {}
    for i in range(pts.size(0)):
        key = (int(rows[i]), int(cols[i]))
        cnt[key] = cnt.get(key, 0) + 1
        d = float(depth[i])
        if key not in best or d < best[key][0]:
            best[key] = (d, i)
    for r in range(H):
        for c in range(W):
            if (r, c) in best:
                d, i = best[(r, c)]
                assert abs(float(depth_img[r, c]) - d) < 1e-6
                assert int(count_img[r, c]) == cnt[(r, c)]
                assert torch.equal(feat_img[r, c], feats[i])
                assert bool(occ[r, c])
            else:
                assert math.isinf(float(depth_img[r, c])) and int(count_img[r, c]) == 0
                assert not bool(occ[r, c]) and torch.count_nonzero(feat_img[r, c]) == 0
    print("ok")
