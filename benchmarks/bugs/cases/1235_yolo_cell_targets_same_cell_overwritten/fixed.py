import torch

GRID = 7
NUM_CLASSES = 3
ANCHORS = torch.tensor([[0.10, 0.30], [0.30, 0.10]])  # (B, 2) anchor w, h, image-normalised


def best_anchor(wh):
    # wh: [N, 2] -> [N] index of the anchor with the largest shape IoU
    inter = torch.min(wh[:, None, :], ANCHORS[None]).prod(-1)          # [N, B]
    union = wh.prod(-1)[:, None] + ANCHORS.prod(-1)[None] - inter        # [N, B]
    return (inter / union).argmax(1)


def build_targets(objects):
    # objects: [N, 5] rows of (class, cx, cy, w, h), coordinates normalised to [0, 1]
    num_anchors = ANCHORS.shape[0]
    coord = torch.zeros(GRID * GRID, num_anchors, 4)       # [cells, B, xywh]
    conf = torch.zeros(GRID * GRID, num_anchors)           # [cells, B]
    probs = torch.zeros(GRID * GRID, NUM_CLASSES)          # [cells, C]
    cls = objects[:, 0].long()                             # [N]
    boxes = objects[:, 1:]                                 # [N, 4]
    col = (boxes[:, 0] * GRID).long().clamp(max=GRID - 1)  # [N]
    row = (boxes[:, 1] * GRID).long().clamp(max=GRID - 1)  # [N]
    cell = row * GRID + col                                # [N]
    slot = best_anchor(boxes[:, 2:])                       # [N]
    coord[cell, slot] = boxes
    conf[cell, slot] = 1.0
    probs[cell, cls] = 1.0
    return coord, conf, probs


if __name__ == "__main__":
    objects = torch.tensor([
        [0, 0.52, 0.48, 0.08, 0.35],   # person, tall
        [2, 0.55, 0.51, 0.33, 0.09],   # car, wide, same grid cell as the person
        [1, 0.12, 0.85, 0.20, 0.20],
    ])
    coord, conf, probs = build_targets(objects)
    ref_coord = torch.zeros_like(coord)
    ref_conf = torch.zeros_like(conf)
    for c, cx, cy, w, h in objects.tolist():
        cell = min(int(cy * GRID), GRID - 1) * GRID + min(int(cx * GRID), GRID - 1)
        best, best_iou = 0, -1.0
        for a, (aw, ah) in enumerate(ANCHORS.tolist()):
            inter = min(w, aw) * min(h, ah)
            iou = inter / (w * h + aw * ah - inter)
            if iou > best_iou:
                best, best_iou = a, iou
        ref_coord[cell, best] = torch.tensor([cx, cy, w, h])
        ref_conf[cell, best] = 1.0
    assert torch.equal(coord, ref_coord) and torch.equal(conf, ref_conf)
    assert int(conf.sum()) == len(objects)
    print("ok")
