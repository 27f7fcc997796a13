import torch


def box_overlap(anchors, boxes):
    lt = torch.max(anchors[:, None, :2], boxes[None, :, :2])
    rb = torch.min(anchors[:, None, 2:], boxes[None, :, 2:])
    inter = (rb - lt).clamp(min=0).prod(dim=2)
    area_a = (anchors[:, 2:] - anchors[:, :2]).prod(dim=1)
    area_b = (boxes[:, 2:] - boxes[:, :2]).prod(dim=1)
    return inter / (area_a[:, None] + area_b[None, :] - inter)


@torch.no_grad()
def retina_anchor_target(anchors, gt_boxes, cfg):
    top_k = cfg["top_k"]
    overlaps = box_overlap(anchors, gt_boxes[:, :4])
    max_overlaps, gt_assignment = overlaps.topk(top_k, dim=1, sorted=True)
    max_overlaps, gt_assignment = max_overlaps.flatten(), gt_assignment.flatten()
    _, gt_assignment_for_gt = torch.max(overlaps, dim=0)
    labels = gt_boxes[gt_assignment, 4] * (max_overlaps >= cfg["negative_thresh"])
    ignore_mask = (max_overlaps < cfg["positive_thresh"]) & (max_overlaps >= cfg["negative_thresh"])
    labels[ignore_mask] = -1
    if cfg["allow_low_quality"]:
        labels[gt_assignment_for_gt * top_k] = gt_boxes[:, 4]
    return labels.reshape(-1, top_k)


def make_image(cfg):
    xy = torch.rand(cfg["num_anchors"], 2) * cfg["image_size"]
    anchors = torch.cat([xy, xy + cfg["anchor_size"]], dim=1)
    gxy = torch.rand(cfg["num_gt"], 2) * cfg["image_size"]
    wh = torch.rand(cfg["num_gt"], 2) * 20 + 8
    gt_boxes = torch.cat([gxy, gxy + wh, torch.randint(1, 3, (cfg["num_gt"], 1)).float()], dim=1)
    return anchors, gt_boxes


def reference_targets(anchors, gt_boxes, cfg):
    overlaps = box_overlap(anchors, gt_boxes[:, :4])
    labels = torch.zeros(anchors.shape[0], cfg["top_k"])
    for a in range(anchors.shape[0]):
        vals, idx = overlaps[a].topk(cfg["top_k"])
        for k in range(cfg["top_k"]):
            v = vals[k].item()
            labels[a, k] = -1 if cfg["negative_thresh"] <= v < cfg["positive_thresh"] else (gt_boxes[idx[k], 4] if v >= cfg["negative_thresh"] else 0)
    for g in range(gt_boxes.shape[0]):
        labels[int(overlaps[:, g].argmax()), 0] = gt_boxes[g, 4]
    return labels


if __name__ == "__main__":
    torch.manual_seed(0)
    cfg = {"num_anchors": 300, "num_gt": 6, "image_size": 100.0, "anchor_size": 16.0, "top_k": 2,
           "negative_thresh": 0.4, "positive_thresh": 0.5, "allow_low_quality": True}
    anchors, gt_boxes = make_image(cfg)
    labels = retina_anchor_target(anchors, gt_boxes, cfg)
    ref = reference_targets(anchors, gt_boxes, cfg)
    assert torch.equal(labels, ref)
    print("ok")
