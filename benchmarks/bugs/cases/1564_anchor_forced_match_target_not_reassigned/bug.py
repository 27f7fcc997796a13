import torch


def generate_anchors(extent, stride, sizes):
    """Axis-aligned BEV anchors on a regular grid.

    Args:
        extent: grid covers centres 0, stride, ..., extent on both axes.
        stride: distance between anchor centres in metres.
        sizes: list of (w, h) anchor sizes.

    Returns:
        Tensor of shape (num_anchors, 4) with rows (x1, y1, x2, y2).
    """
    centres = torch.arange(0, extent + 1e-6, stride)
    out = []
    for cx in centres.tolist():
        for cy in centres.tolist():
            for w, h in sizes:
                out.append([cx - w / 2, cy - h / 2, cx + w / 2, cy + h / 2])
    return torch.tensor(out)


def box_iou(boxes1, boxes2):
    """IoU between (N, 4) and (M, 4) boxes in (x1, y1, x2, y2) form; returns (N, M)."""
    lt = torch.max(boxes1[:, None, :2], boxes2[None, :, :2])
    rb = torch.min(boxes1[:, None, 2:], boxes2[None, :, 2:])
    inter = (rb - lt).clamp(min=0).prod(-1)
    area1 = (boxes1[:, 2:] - boxes1[:, :2]).prod(-1)
    area2 = (boxes2[:, 2:] - boxes2[:, :2]).prod(-1)
    return inter / (area1[:, None] + area2[None, :] - inter)


def assign_targets(anchors, gt_boxes, gt_labels, pos_th=0.6, neg_th=0.45):
    """SSD-style matching of anchors to ground truth.

    An anchor is positive if its IoU with some box is >= pos_th, or if it is the best
    anchor of a box (and that IoU is >= neg_th).

    Args:
        anchors: (A, 4) anchors.
        gt_boxes: (G, 4) ground-truth boxes.
        gt_labels: (G,) class ids.

    Returns:
        pos_idx: (A,) bool mask of positive anchors.
        neg_idx: (A,) bool mask of negative anchors.
        assigned_boxes: (P, 4) regression target of every positive anchor.
        assigned_labels: (P,) class target of every positive anchor.
        matched_gt: (P,) index of the ground-truth box each positive anchor regresses to.
    """
    overlaps = box_iou(gt_boxes, anchors)  # (G, A)
    # for each anchor the gt with max IoU
    max_overlaps, argmax_overlaps = overlaps.max(dim=0)
    # for each gt the anchor with max IoU
    gt_max_overlaps, _ = overlaps.max(dim=1)

    pos_idx = max_overlaps >= pos_th
    neg_idx = (max_overlaps >= 0) & (max_overlaps < neg_th)

    for k in range(len(gt_boxes)):
        if gt_max_overlaps[k] >= neg_th:
            pos_idx[overlaps[k, :] == gt_max_overlaps[k]] = True
    neg_idx = neg_idx & ~pos_idx

    matched_gt = argmax_overlaps[pos_idx]
    assigned_boxes = gt_boxes[matched_gt]
    assigned_labels = gt_labels[matched_gt]
    return pos_idx, neg_idx, assigned_boxes, assigned_labels, matched_gt


if __name__ == "__main__":
    anchors = generate_anchors(extent=8.0, stride=1.0, sizes=[(2.0, 1.0), (1.0, 2.0)])
    # a car and a cyclist squeezed against it in the BEV
    gt_boxes = torch.tensor([[4.9, 2.0, 7.1, 3.8], [5.4, 2.4, 7.7, 3.6]])
    gt_labels = torch.tensor([0, 2])
    pos_idx, neg_idx, boxes, labels, matched_gt = assign_targets(anchors, gt_boxes, gt_labels)
    best_anchor = box_iou(gt_boxes, anchors).argmax(dim=1)
    print("best anchor per gt:", best_anchor.tolist(), "positive anchors:", pos_idx.nonzero().flatten().tolist())
    print("anchors regressing to each gt:", torch.bincount(matched_gt, minlength=len(gt_boxes)).tolist())
