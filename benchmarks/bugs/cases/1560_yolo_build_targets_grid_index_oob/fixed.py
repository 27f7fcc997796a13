import torch


def bbox_wh_iou(wh1, wh2):
    """IoU of anchor sizes against box sizes, both centred at the origin.

    Args:
        wh1: (2,) anchor width and height.
        wh2: (nT, 2) target widths and heights.

    Returns:
        (nT,) IoU values.
    """
    inter = torch.min(wh1[0], wh2[:, 0]) * torch.min(wh1[1], wh2[:, 1])
    union = wh1[0] * wh1[1] + wh2[:, 0] * wh2[:, 1] - inter
    return inter / (union + 1e-16)


def build_targets(pred_cls, target, anchors, ignore_thres):
    """Assign ground-truth boxes to grid cells and anchors of one YOLO layer.

    Args:
        pred_cls: (nB, nA, nG, nG, nC) predicted class probabilities.
        target: (nT, 6) rows of [image_index, class, x, y, w, h]; x, y, w, h are
            normalised to [0, 1] by the image size.
        anchors: (nA, 2) anchor sizes in grid units.
        ignore_thres: IoU above which a non-best anchor is not counted as background.

    Returns:
        obj_mask, noobj_mask: (nB, nA, nG, nG) bool masks.
        tx, ty, tw, th: (nB, nA, nG, nG) regression targets.
        tcls: (nB, nA, nG, nG, nC) one-hot class targets.
    """
    nB, nA, nG, _, nC = pred_cls.shape
    obj_mask = torch.zeros(nB, nA, nG, nG, dtype=torch.bool)
    noobj_mask = torch.ones(nB, nA, nG, nG, dtype=torch.bool)
    tx = torch.zeros(nB, nA, nG, nG)
    ty = torch.zeros(nB, nA, nG, nG)
    tw = torch.zeros(nB, nA, nG, nG)
    th = torch.zeros(nB, nA, nG, nG)
    tcls = torch.zeros(nB, nA, nG, nG, nC)

    target_boxes = target[:, 2:6] * nG
    # centres on (or slightly past) the border must still fall in the last cell
    gxy = target_boxes[:, :2].clamp(0, nG - 1e-4)
    gwh = target_boxes[:, 2:]
    ious = torch.stack([bbox_wh_iou(anchor, gwh) for anchor in anchors])
    _, best_n = ious.max(0)
    b, target_labels = target[:, :2].long().t()
    gx, gy = gxy.t()
    gw, gh = gwh.t()
    gi, gj = gxy.long().t()

    obj_mask[b, best_n, gj, gi] = True
    noobj_mask[b, best_n, gj, gi] = False
    for i, anchor_ious in enumerate(ious.t()):
        noobj_mask[b[i], anchor_ious > ignore_thres, gj[i], gi[i]] = False

    tx[b, best_n, gj, gi] = gx - gx.floor()
    ty[b, best_n, gj, gi] = gy - gy.floor()
    tw[b, best_n, gj, gi] = torch.log(gw / anchors[best_n][:, 0] + 1e-16)
    th[b, best_n, gj, gi] = torch.log(gh / anchors[best_n][:, 1] + 1e-16)
    tcls[b, best_n, gj, gi, target_labels] = 1
    return obj_mask, noobj_mask, tx, ty, tw, th, tcls


def read_labels(rows):
    """Parse darknet label rows 'image_index class x y w h' into a (nT, 6) tensor."""
    return torch.tensor([[float(v) for v in r.split()] for r in rows])


if __name__ == "__main__":
    torch.manual_seed(0)
    anchors = torch.tensor([[1.25, 1.625], [2.0, 3.75], [4.125, 2.875]])
    pred_cls = torch.rand(2, 3, 13, 13, 4)
    labels = read_labels([
        "0 1 0.512 0.430 0.210 0.330",
        "0 3 0.115 0.802 0.090 0.120",
        "1 0 0.640 0.275 0.300 0.410",
        # box annotated slightly past the right image border by the labelling tool
        "1 2 1.0004 0.561 0.052 0.140",
    ])
    obj_mask, noobj_mask, tx, ty, tw, th, tcls = build_targets(pred_cls, labels, anchors, ignore_thres=0.5)
    nG = 13
    for t in labels:
        bi, c = int(t[0]), int(t[1])
        ci = min(int(t[2] * nG), nG - 1)
        cj = min(int(t[3] * nG), nG - 1)
        assert obj_mask[bi, :, cj, ci].any() and not noobj_mask[bi, :, cj, ci].all()
        a = int(obj_mask[bi, :, cj, ci].nonzero()[0])
        assert tcls[bi, a, cj, ci, c] == 1
        assert 0 <= tx[bi, a, cj, ci] < 1 and 0 <= ty[bi, a, cj, ci] < 1
    assert int(obj_mask.sum()) == len(labels)
    print("ok")
