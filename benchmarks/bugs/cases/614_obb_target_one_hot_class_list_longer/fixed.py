import torch
import torch.nn.functional as F

DOTA_CLASSES = [
    "plane", "ship", "storage-tank", "baseball-diamond", "tennis-court",
    "basketball-court", "ground-track-field", "harbor", "bridge", "large-vehicle",
    "small-vehicle", "helicopter", "roundabout", "soccer-ball-field", "swimming-pool",
    "container-crane",
]
CFG = {"num_classes": len(DOTA_CLASSES), "anchors_per_gt": 3}


def parse_dota_line(line):
    parts = line.split()
    pts = [float(p) for p in parts[:8]]
    cx = sum(pts[0::2]) / 4
    cy = sum(pts[1::2]) / 4
    return [DOTA_CLASSES.index(parts[8]), cx, cy]


def collate_targets(per_image_lines):
    rows = []
    for img_idx, lines in enumerate(per_image_lines):
        for ln in lines:
            rows.append([img_idx] + parse_dota_line(ln))
    return torch.tensor(rows)  # (n_gt, 4): [img_idx, cls, cx, cy]


class OBBLoss:
    def __init__(self, num_classes):
        self.num_classes = num_classes

    def build_cls_targets(self, targets, n_candidates):
        this_target = targets[targets[:, 0] == 0]  # (n_gt_img, 4)
        gt_cls = F.one_hot(this_target[:, 1].to(torch.int64), self.num_classes).float()  # (n_gt_img, C)
        return gt_cls.unsqueeze(1).repeat(1, n_candidates, 1)  # (n_gt_img, n_cand, C)


if __name__ == "__main__":
    labels = [[
        "10 10 30 10 30 20 10 20 plane 0",
        "50 50 90 50 90 80 50 80 container-crane 0",
        "5 60 15 60 15 70 5 70 small-vehicle 1",
    ]]
    targets = collate_targets(labels)
    loss = OBBLoss(CFG["num_classes"])
    cls_t = loss.build_cls_targets(targets, CFG["anchors_per_gt"])
    this = targets[targets[:, 0] == 0]
    assert cls_t.shape == (this.shape[0], CFG["anchors_per_gt"], len(DOTA_CLASSES))
    for g in range(this.shape[0]):
        for a in range(CFG["anchors_per_gt"]):
            for c in range(len(DOTA_CLASSES)):
                assert cls_t[g, a, c] == (1.0 if c == int(this[g, 1]) else 0.0)
    print("ok")
