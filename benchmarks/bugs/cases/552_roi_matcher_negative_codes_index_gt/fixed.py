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
        # unmatched proposals carry -1/-2; clamp before indexing, labels are overwritten below
        safe_idxs = matched_idxs.clamp(min=0)
        matched_boxes = gt_boxes[safe_idxs]
        labels = gt_labels[safe_idxs]
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


def reference(proposals, gt_boxes, gt_labels, fg, bg):
    labels, boxes = [], []
    for p in proposals:
        ious = [box_iou(g[None], p[None])[0, 0].item() for g in gt_boxes]
        j = max(range(len(ious)), key=lambda k: ious[k])
        if ious[j] < bg:
            labels.append(0)
        elif ious[j] < fg:
            labels.append(-1)
        else:
            labels.append(int(gt_labels[j]))
        boxes.append(gt_boxes[j].tolist() if ious[j] >= fg else None)
    return labels, boxes


if __name__ == "__main__":
    cfg = {"fg_iou_thresh": 0.7, "bg_iou_thresh": 0.5}
    heads = RoIHeadTargets(cfg)
    proposals, targets = load_batch()
    results = heads.prepare_targets(proposals, targets)
    for (labels, boxes), props, tgt in zip(results, proposals, targets):
        ref_labels, ref_boxes = reference(props, tgt["boxes"], tgt["labels"], 0.7, 0.5)
        assert labels.tolist() == ref_labels, (labels, ref_labels)
        for b, rb in zip(boxes, ref_boxes):
            if rb is not None:
                assert b.tolist() == rb
    print("ok")
