import torch
from torch import nn
from torch.nn import functional as F


def _nms(heat, kernel=3):
    # heat: [B, C, H, W]; keep only local maxima
    hmax = F.max_pool2d(heat, kernel, stride=1, padding=(kernel - 1) // 2)
    keep = (hmax == heat).float()
    return heat * keep


def _gather_feat(feat, ind):
    # feat: [B, H*W, D], ind: [B, K] -> [B, K, D]
    dim = feat.size(2)
    ind = ind.unsqueeze(2).expand(ind.size(0), ind.size(1), dim)
    return feat.gather(1, ind)


def _transpose_and_gather_feat(feat, ind):
    # feat: [B, D, H, W] -> [B, H*W, D] then pick the K peak locations
    feat = feat.permute(0, 2, 3, 1).contiguous()
    feat = feat.view(feat.size(0), -1, feat.size(3))
    return _gather_feat(feat, ind)


def _topk(scores, K=10):
    batch, cat, height, width = scores.size()
    # best K locations of every class: [B, C, K]
    topk_scores, topk_inds = torch.topk(scores.view(batch, cat, -1), K)
    topk_ys = torch.div(topk_inds, width, rounding_mode="floor").float()
    topk_xs = (topk_inds % width).float()

    # best K over all classes: [B, K]
    topk_score, topk_ind = torch.topk(topk_scores.view(batch, -1), K)
    topk_clses = torch.div(topk_ind, K, rounding_mode="floor")
    topk_inds = _gather_feat(topk_inds.view(batch, -1, 1), topk_ind).view(batch, K)
    topk_ys = _gather_feat(topk_ys.view(batch, -1, 1), topk_ind).view(batch, K)
    topk_xs = _gather_feat(topk_xs.view(batch, -1, 1), topk_ind).view(batch, K)
    return topk_score, topk_inds, topk_clses, topk_ys, topk_xs


def ctdet_decode(heat, wh, reg, K=10):
    batch = heat.size(0)
    heat = _nms(heat)
    scores, inds, clses, ys, xs = _topk(heat, K=K)
    reg = _transpose_and_gather_feat(reg, inds)  # [B, K, 2]
    xs = xs.view(batch, K, 1) + reg[:, :, 0:1]
    ys = ys.view(batch, K, 1) + reg[:, :, 1:2]
    wh = _transpose_and_gather_feat(wh, inds)    # [B, K, 2]
    bboxes = torch.cat([xs - wh[..., 0:1] / 2, ys - wh[..., 1:2] / 2,
                        xs + wh[..., 0:1] / 2, ys + wh[..., 1:2] / 2], dim=2)
    return torch.cat([bboxes, scores.unsqueeze(2), clses.float().unsqueeze(2)], dim=2)


def reference_decode(heat, wh, reg, K=10):
    B, C, H, W = heat.shape
    out = []
    for b in range(B):
        cands = []
        for c in range(C):
            for y in range(H):
                for x in range(W):
                    v = heat[b, c, y, x].item()
                    is_max = True
                    for dy in (-1, 0, 1):
                        for dx in (-1, 0, 1):
                            yy, xx = y + dy, x + dx
                            if 0 <= yy < H and 0 <= xx < W and heat[b, c, yy, xx].item() > v:
                                is_max = False
                    cands.append((v if is_max else 0.0, c, y, x))
        # per class top-K first, then global top-K (ties are absent with continuous scores)
        per_class = []
        for c in range(C):
            cls_c = sorted([k for k in cands if k[1] == c], key=lambda k: -k[0])[:K]
            per_class += cls_c
        best = sorted(per_class, key=lambda k: -k[0])[:K]
        dets = []
        for v, c, y, x in best:
            cx = x + reg[b, 0, y, x].item()
            cy = y + reg[b, 1, y, x].item()
            w, h = wh[b, 0, y, x].item(), wh[b, 1, y, x].item()
            dets.append([cx - w / 2, cy - h / 2, cx + w / 2, cy + h / 2, v, float(c)])
        out.append(dets)
    return torch.tensor(out)


class CenterHead(nn.Module):
    def __init__(self, in_ch=8, num_classes=3):
        super().__init__()
        self.hm = nn.Conv2d(in_ch, num_classes, 1)
        self.wh = nn.Conv2d(in_ch, 2, 1)
        self.reg = nn.Conv2d(in_ch, 2, 1)

    def forward(self, x):
        return torch.sigmoid(self.hm(x)), F.softplus(self.wh(x)) * 8, torch.sigmoid(self.reg(x))


if __name__ == "__main__":
    torch.manual_seed(0)
    head = CenterHead()
    feats = torch.randn(2, 8, 12, 16)
    with torch.no_grad():
        heat, wh, reg = head(feats)
        dets = ctdet_decode(heat, wh, reg, K=10)
        ref = reference_decode(heat, wh, reg, K=10)
    assert dets.shape == (2, 10, 6)
    assert torch.allclose(dets, ref, atol=1e-4), (dets - ref).abs().max()
    print("ok")
