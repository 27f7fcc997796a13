import torch
import torch.nn.functional as F


def _nms(heat, kernel=3):
    # heat: (B, C, H, W); keep only local maxima
    hmax = F.max_pool2d(heat, kernel, stride=1, padding=(kernel - 1) // 2)
    return heat * (hmax == heat).float()


def _gather_feat(feat, ind):
    # feat: (B, H*W, D), ind: (B, K) -> (B, K, D)
    dim = feat.size(2)
    ind = ind.unsqueeze(2).expand(ind.size(0), ind.size(1), dim)
    return feat.gather(1, ind)


def _transpose_and_gather_feat(feat, ind):
    # feat: (B, D, H, W) -> (B, H*W, D) before gathering the K peak locations
    feat = feat.permute(0, 2, 3, 1).contiguous()
    feat = feat.view(feat.size(0), -1, feat.size(3))
    return _gather_feat(feat, ind)


def _topk(scores, K):
    # scores: (B, C, H, W)
    batch, cat, height, width = scores.size()
    topk_scores, topk_inds = torch.topk(scores.view(batch, cat, -1), K)     # (B, C, K)
    topk_inds = topk_inds % (height * width)
    topk_ys = torch.div(topk_inds, width, rounding_mode="floor").float()
    topk_xs = (topk_inds % width).float()
    topk_score, topk_ind = torch.topk(topk_scores.view(batch, -1), K)       # (B, K)
    topk_clses = torch.div(topk_ind, K, rounding_mode="floor")
    topk_inds = topk_inds.view(batch, -1).gather(1, topk_ind)
    topk_ys = topk_ys.view(batch, -1).gather(1, topk_ind)
    topk_xs = topk_xs.view(batch, -1).gather(1, topk_ind)
    return topk_score, topk_inds, topk_clses, topk_ys, topk_xs


def ctdet_decode(heat, wh, reg, K=10):
    batch = heat.size(0)
    heat = _nms(heat)
    scores, inds, clses, ys, xs = _topk(heat, K)
    reg = _transpose_and_gather_feat(reg, inds)                  # (B, K, 2)
    xs = xs.view(batch, K, 1) + reg[:, :, 0:1]
    ys = ys.view(batch, K, 1) + reg[:, :, 1:2]
    wh = _transpose_and_gather_feat(wh, inds)                    # (B, K, 2)
    boxes = torch.cat([xs - wh[..., 0:1] / 2, ys - wh[..., 1:2] / 2,
                       xs + wh[..., 0:1] / 2, ys + wh[..., 1:2] / 2], dim=2)
    return boxes, scores, clses


if __name__ == "__main__":
    torch.manual_seed(0)
    B, C, H, W, K = 2, 3, 8, 10, 5
    heat = torch.rand(B, C, H, W)
    wh = torch.rand(B, 2, H, W) * 4
    reg = torch.rand(B, 2, H, W)
    boxes, scores, clses = ctdet_decode(heat, wh, reg, K=K)

    peaks = _nms(heat)
    for b in range(B):
        cands = []
        for c in range(C):
            for y in range(H):
                for x in range(W):
                    cands.append((peaks[b, c, y, x].item(), c, y, x))
        per_class = {}
        for s, c, y, x in cands:
            per_class.setdefault(c, []).append((s, c, y, x))
        pool = [t for c in per_class for t in sorted(per_class[c], key=lambda t: -t[0])[:K]]
        best = sorted(pool, key=lambda t: -t[0])[:K]
        for k, (s, c, y, x) in enumerate(best):
            assert abs(scores[b, k].item() - s) < 1e-6 and clses[b, k].item() == c
            cx, cy = x + reg[b, 0, y, x].item(), y + reg[b, 1, y, x].item()
            w, h = wh[b, 0, y, x].item(), wh[b, 1, y, x].item()
            exp = torch.tensor([cx - w / 2, cy - h / 2, cx + w / 2, cy + h / 2])
            assert torch.allclose(boxes[b, k], exp, atol=1e-5), (boxes[b, k], exp)
    print("ok")
