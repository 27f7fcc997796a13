import torch

BELOW_LOW_THRESHOLD = -1
BETWEEN_THRESHOLDS = -2


def box_iou(a, b):
    lt = torch.max(a[:, None, :2], b[None, :, :2])
    rb = torch.min(a[:, None, 2:], b[None, :, 2:])
    inter = (rb - lt).clamp(min=0).prod(-1)
    area_a = (a[:, 2:] - a[:, :2]).prod(-1)
    area_b = (b[:, 2:] - b[:, :2]).prod(-1)
    return inter / (area_a[:, None] + area_b[None, :] - inter)


class Matcher:
    def __init__(self, high_threshold, low_threshold):
        self.high = high_threshold
        self.low = low_threshold

    def __call__(self, quality):
        best, matches = quality.max(dim=0)
        matches = matches.clone()
        matches[best < self.low] = BELOW_LOW_THRESHOLD
        matches[(best >= self.low) & (best < self.high)] = BETWEEN_THRESHOLDS
        return matches


class RoIHeadTargets:
    def __init__(self, cfg):
        self.matcher = Matcher(cfg["fg_iou_thresh"], cfg["bg_iou_thresh"])

    def match_targets_to_proposals(self, proposals, gt_boxes, gt_labels):
        matched_idxs = self.matcher(box_iou(gt_boxes, proposals))
        matched_boxes = gt_boxes[matched_idxs]
        labels = gt_labels[matched_idxs]
        labels[matched_idxs == BELOW_LOW_THRESHOLD] = 0
        labels[matched_idxs == BETWEEN_THRESHOLDS] = -1
        return labels, matched_boxes

    def prepare_targets(self, proposals, targets):
        out = []
        for props, tgt in zip(proposals, targets):
            out.append(self.match_targets_to_proposals(props, tgt["boxes"], tgt["labels"]))
        return out


def load_batch():
    proposals = [
        torch.tensor([[0., 0., 10., 10.], [20., 20., 30., 30.], [50., 50., 60., 60.], [1., 1., 9., 11.]]),
        torch.tensor([[0., 0., 10., 10.], [0., 0., 10., 16.], [40., 40., 50., 50.]]),
    ]
    targets = [
        {"boxes": torch.tensor([[0., 0., 10., 10.], [20., 20., 30., 31.], [70., 70., 80., 80.]]),
         "labels": torch.tensor([3, 5, 7])},
        {"boxes": torch.tensor([[0., 0., 10., 10.]]), "labels": torch.tensor([2])},
    ]
    return proposals, targets


if __name__ == "__main__":
    cfg = {"fg_iou_thresh": 0.7, "bg_iou_thresh": 0.5}
    heads = RoIHeadTargets(cfg)
    proposals, targets = load_batch()
    for labels, boxes in heads.prepare_targets(proposals, targets):
        print("labels", labels.tolist())
