import torch
import torch.nn.functional as F


def box_iou(a, b):
    # a: [A, 4], b: [G, 4] -> [A, G]
    area_a = (a[:, 2] - a[:, 0]) * (a[:, 3] - a[:, 1])
    area_b = (b[:, 2] - b[:, 0]) * (b[:, 3] - b[:, 1])
    lt = torch.max(a[:, None, :2], b[None, :, :2])  # [A, G, 2]
    rb = torch.min(a[:, None, 2:], b[None, :, 2:])  # [A, G, 2]
    inter = (rb - lt).clamp(min=0).prod(-1)  # [A, G]
    return inter / (area_a[:, None] + area_b[None, :] - inter)


def match_anchors(anchors, gt_boxes, fg_thresh=0.5, bg_thresh=0.4):
    # anchors: [A, 4], gt_boxes: [G, 4] -> matched gt index per anchor [A], -1 background, -2 ignored
    iou = box_iou(anchors, gt_boxes)  # [A, G]
    best_iou, best_gt = iou.max(dim=1)  # [A], [A]
    matched = best_gt.clone()
    matched[best_iou < fg_thresh] = -2
    matched[best_iou < bg_thresh] = -1
    return matched


def load_annotations(raw_annotations):
    # every record: {"boxes": [G, 4] float, "category_ids": [G] ints as stored in the json (1..num_classes)}
    targets = []
    for rec in raw_annotations:
        boxes = torch.tensor(rec["boxes"], dtype=torch.float32)  # [G, 4]
        labels = torch.tensor(rec["category_ids"], dtype=torch.long)  # [G]
        targets.append({"boxes": boxes, "labels": labels})
    return targets


def sigmoid_focal_loss(logits, targets, alpha=0.25, gamma=2.0):
    # logits, targets: [A, K]
    p = logits.sigmoid()
    ce = F.binary_cross_entropy_with_logits(logits, targets, reduction="none")
    p_t = p * targets + (1 - p) * (1 - targets)
    loss = ce * (1 - p_t) ** gamma
    alpha_t = alpha * targets + (1 - alpha) * (1 - targets)
    return (alpha_t * loss).sum()


def classification_loss(cls_logits, targets, anchors):
    # cls_logits: [B, A, K] (K = num_classes, no background column), anchors: [A, 4]
    losses = []
    for logits_per_image, tgt in zip(cls_logits, targets):
        matched_idxs = match_anchors(anchors, tgt["boxes"])  # [A]
        foreground = matched_idxs >= 0  # [A]
        gt_classes_target = torch.zeros_like(logits_per_image)  # [A, K]
        gt_classes_target[foreground, tgt["labels"][matched_idxs[foreground]]] = 1.0
        valid = matched_idxs != -2  # [A]
        num_fg = max(int(foreground.sum()), 1)
        losses.append(sigmoid_focal_loss(logits_per_image[valid], gt_classes_target[valid]) / num_fg)
    return sum(losses) / len(targets)


def make_anchors(image_size=64, stride=8, sizes=(12.0, 24.0)):
    # returns [A, 4] anchors centred on a stride grid
    centers = torch.arange(stride / 2, image_size, stride)
    cy, cx = torch.meshgrid(centers, centers, indexing="ij")
    cx, cy = cx.reshape(-1), cy.reshape(-1)
    out = []
    for s in sizes:
        out.append(torch.stack([cx - s / 2, cy - s / 2, cx + s / 2, cy + s / 2], dim=-1))
    return torch.cat(out, dim=0)


if __name__ == "__main__":
    torch.manual_seed(0)
    num_classes = 8
    raw = [
        {"boxes": [[4.0, 4.0, 28.0, 28.0], [34.0, 30.0, 58.0, 54.0]], "category_ids": [3, 8]},
        {"boxes": [[10.0, 36.0, 22.0, 48.0]], "category_ids": [1]},
    ]
    targets = load_annotations(raw)
    anchors = make_anchors()  # [128, 4]
    cls_logits = torch.randn(2, anchors.shape[0], num_classes)  # [B, A, K]
    loss = classification_loss(cls_logits, targets, anchors)
    print("classification loss:", loss.item())
