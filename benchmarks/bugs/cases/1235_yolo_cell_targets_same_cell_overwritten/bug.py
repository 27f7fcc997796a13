import torch

GRID = 7
NUM_CLASSES = 3
ANCHORS = torch.tensor([[0.10, 0.30], [0.30, 0.10]])  # (B, 2) anchor w, h, image-normalised


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
    coord[cell] = boxes[:, None, :].expand(-1, num_anchors, -1)
    conf[cell] = 1.0
    probs[cell, cls] = 1.0
    return coord, conf, probs


if __name__ == "__main__":
    objects = torch.tensor([
        [0, 0.52, 0.48, 0.08, 0.35],   # person, tall
        [2, 0.55, 0.51, 0.33, 0.09],   # car, wide, same grid cell as the person
        [1, 0.12, 0.85, 0.20, 0.20],
    ])
    coord, conf, probs = build_targets(objects)
    kept = {tuple(round(v, 2) for v in b.tolist()) for b in coord.view(-1, 4) if b.abs().sum() > 0}
    print(f"{len(objects)} objects annotated, {len(kept)} distinct boxes in the regression target")
    print("cell 24 boxes:", coord[24].tolist())
