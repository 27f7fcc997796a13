import torch


def bbox_ious(boxes1, boxes2):
    mx = torch.min(boxes1[0] - boxes1[2] / 2.0, boxes2[0] - boxes2[2] / 2.0)
    Mx = torch.max(boxes1[0] + boxes1[2] / 2.0, boxes2[0] + boxes2[2] / 2.0)
    my = torch.min(boxes1[1] - boxes1[3] / 2.0, boxes2[1] - boxes2[3] / 2.0)
    My = torch.max(boxes1[1] + boxes1[3] / 2.0, boxes2[1] + boxes2[3] / 2.0)
    uw, uh = Mx - mx, My - my
    cw = boxes1[2] + boxes2[2] - uw
    ch = boxes1[3] + boxes2[3] - uh
    carea = (cw * ch).clamp(min=0) * ((cw > 0) & (ch > 0)).float()
    uarea = boxes1[2] * boxes1[3] + boxes2[2] * boxes2[3] - carea
    return carea / uarea


def build_targets(pred_boxes, target, num_anchors, nH, nW, noobject_scale, sil_thresh):
    nB = target.size(0)
    nA = num_anchors
    nAnchors = nA * nH * nW
    conf_mask = torch.ones(nB, nA, nH, nW) * noobject_scale
    for b in range(nB):
        cur_pred_boxes = pred_boxes[b * nAnchors:(b + 1) * nAnchors].t()
        cur_ious = torch.zeros(nAnchors)
        for t in range(50):
            if target[b][t * 5 + 1] == 0:
                break
            gx = target[b][t * 5 + 1] * nW
            gy = target[b][t * 5 + 2] * nH
            gw = target[b][t * 5 + 3] * nW
            gh = target[b][t * 5 + 4] * nH
            cur_gt_boxes = torch.tensor([gx, gy, gw, gh]).repeat(nAnchors, 1).t()
            cur_ious = torch.max(cur_ious, bbox_ious(cur_pred_boxes, cur_gt_boxes))
        conf_mask[b][cur_ious.view(nA, nH, nW) > sil_thresh] = 0
    return conf_mask


if __name__ == "__main__":
    torch.manual_seed(0)
    nB, nA, nH, nW = 2, 5, 4, 4
    pred_boxes = torch.cat([torch.rand(nB * nA * nH * nW, 2) * 4,
                            torch.rand(nB * nA * nH * nW, 2) * 2 + 0.5], dim=1)
    target = torch.zeros(nB, 50 * 5)
    target[0, :5] = torch.tensor([0.0, 0.4, 0.5, 0.3, 0.25])
    target[1, :10] = torch.tensor([1.0, 0.2, 0.3, 0.2, 0.2, 2.0, 0.7, 0.6, 0.4, 0.3])
    conf_mask = build_targets(pred_boxes, target, nA, nH, nW, noobject_scale=1.0, sil_thresh=0.6)
    nAnchors = nA * nH * nW
    for b in range(nB):
        gts = []
        for t in range(50):
            if target[b][t * 5 + 1] == 0:
                break
            gts.append([float(target[b][t * 5 + k]) * (nW if k in (1, 3) else nH) for k in (1, 2, 3, 4)])
        for a in range(nA):
            for j in range(nH):
                for i in range(nW):
                    p = pred_boxes[b * nAnchors + a * nH * nW + j * nW + i].tolist()
                    best = 0.0
                    for g in gts:
                        iw = min(p[0] + p[2] / 2, g[0] + g[2] / 2) - max(p[0] - p[2] / 2, g[0] - g[2] / 2)
                        ih = min(p[1] + p[3] / 2, g[1] + g[3] / 2) - max(p[1] - p[3] / 2, g[1] - g[3] / 2)
                        inter = max(iw, 0.0) * max(ih, 0.0) if iw > 0 and ih > 0 else 0.0
                        best = max(best, inter / (p[2] * p[3] + g[2] * g[3] - inter))
                    expected = 0.0 if best > 0.6 else 1.0
                    assert float(conf_mask[b, a, j, i]) == expected, (b, a, j, i, best)
    assert int((conf_mask == 0).sum()) > 0
    print("ok")
