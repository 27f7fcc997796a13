import torch


def bbox_wh_iou(wh1, wh2):
    wh2 = wh2.t()
    w1, h1 = wh1[0], wh1[1]
    w2, h2 = wh2[0], wh2[1]
    inter_area = torch.min(w1, w2) * torch.min(h1, h2)
    union_area = (w1 * h1 + 1e-16) + w2 * h2 - inter_area
    return inter_area / union_area


def build_targets(pred_cls, target, anchors, ignore_thres):
    nB = pred_cls.size(0)
    nA = pred_cls.size(1)
    nC = pred_cls.size(-1)
    nG = pred_cls.size(2)

    obj_mask = torch.zeros(nB, nA, nG, nG, dtype=torch.bool)
    noobj_mask = torch.ones(nB, nA, nG, nG, dtype=torch.bool)
    tx = torch.zeros(nB, nA, nG, nG)
    ty = torch.zeros(nB, nA, nG, nG)
    tw = torch.zeros(nB, nA, nG, nG)
    th = torch.zeros(nB, nA, nG, nG)
    tcls = torch.zeros(nB, nA, nG, nG, nC)

    # Convert to position relative to box
    target_boxes = target[:, 2:6] * nG
    gxy = target_boxes[:, :2]
    gwh = target_boxes[:, 2:]
    # Get anchors with best iou
    ious = torch.stack([bbox_wh_iou(anchor, gwh) for anchor in anchors])
    best_ious, best_n = ious.max(0)
    # Separate target values
    b, target_labels = target[:, :2].long().t()
    gx, gy = gxy.t()
    gw, gh = gwh.t()
    gi, gj = gxy.long().t()
    # Set masks
    obj_mask[b, best_n, gj, gi] = 1
    noobj_mask[b, best_n, gj, gi] = 0

    # Set noobj mask to zero where iou exceeds ignore threshold
    for i, anchor_ious in enumerate(ious.t()):
        noobj_mask[b[i], anchor_ious > ignore_thres, gj[i], gi[i]] = 0

    # Coordinates
    tx[b, best_n, gj, gi] = gx - gx.floor()
    ty[b, best_n, gj, gi] = gy - gy.floor()
    # Width and height
    tw[b, best_n, gj, gi] = torch.log(gw / anchors[best_n][:, 0] + 1e-16)
    th[b, best_n, gj, gi] = torch.log(gh / anchors[best_n][:, 1] + 1e-16)
    # One-hot encoding of label
    tcls[b, best_n, gj, gi, target_labels] = 1
    return obj_mask, noobj_mask, tx, ty, tw, th, tcls


if __name__ == "__main__":
    torch.manual_seed(0)
    anchors = torch.tensor([[1.25, 1.625], [2.0, 3.75], [4.125, 2.875]])
    pred_cls = torch.rand(2, 3, 13, 13, 4)
    # [image, class, x_center, y_center, w, h], normalised to the image
    target = torch.tensor([
        [0.0, 1.0, 0.41, 0.55, 0.20, 0.31],
        [0.0, 3.0, 0.77, 0.12, 0.09, 0.14],
        # a box cropped at the right border by the random-crop augmentation
        [1.0, 2.0, 1.00, 0.63, 0.18, 0.22],
    ])
    obj_mask, noobj_mask, tx, ty, tw, th, tcls = build_targets(pred_cls, target, anchors, ignore_thres=0.5)
    print("positives:", int(obj_mask.sum()))
