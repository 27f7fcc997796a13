import torch
import torch.nn.functional as F


class YOLOXHeadLoss:
    def __init__(self, num_classes):
        self.num_classes = num_classes

    def cls_targets(self, gt_classes, pred_ious_this_matching):
        # gt_classes:               (num_fg,)  class id of the gt box matched to each fg anchor
        # pred_ious_this_matching:  (num_fg,)  IoU of the matched prediction
        cls_target = F.one_hot(gt_classes.to(torch.int64), self.num_classes)   # (num_fg, num_classes)
        return cls_target * pred_ious_this_matching.unsqueeze(-1)

    def cls_loss(self, cls_preds, fg_mask, gt_classes, ious):
        # cls_preds: (num_anchors, num_classes) logits; fg_mask: (num_anchors,) bool
        target = self.cls_targets(gt_classes, ious)
        return F.binary_cross_entropy_with_logits(cls_preds[fg_mask], target, reduction="sum")


def load_annotations():
    # rows: (class_id, x1, y1, x2, y2); the dataset numbers classes 1..num_classes, 0 is background
    return torch.tensor([
        [1, 10.0, 12.0, 50.0, 60.0],
        [3, 30.0, 40.0, 80.0, 90.0],
        [2, 5.0, 5.0, 20.0, 25.0],
    ])


def main():
    torch.manual_seed(0)
    num_classes = 3
    head = YOLOXHeadLoss(num_classes)
    gts = load_annotations()
    cls_preds = torch.randn(20, num_classes)                  # (num_anchors, num_classes)
    fg_mask = torch.zeros(20, dtype=torch.bool)
    fg_mask[[2, 5, 7, 11, 13]] = True
    matched_gt = torch.tensor([0, 1, 1, 2, 0])                 # gt index of each fg anchor
    gt_classes = gts[matched_gt, 0] - 1                        # 0-based ids for the head
    ious = torch.rand(5)
    loss = head.cls_loss(cls_preds, fg_mask, gt_classes, ious)
    import math
    ref = 0.0
    fg_rows = cls_preds[fg_mask]
    for i in range(5):
        for c in range(num_classes):
            y = float(ious[i]) if c == int(gt_classes[i]) else 0.0
            x = float(fg_rows[i, c])
            ref += -(y * math.log(1 / (1 + math.exp(-x))) + (1 - y) * math.log(1 - 1 / (1 + math.exp(-x))))
    assert abs(loss.item() - ref) < 1e-4, (loss.item(), ref)
    print("ok")


if __name__ == "__main__":
    main()
