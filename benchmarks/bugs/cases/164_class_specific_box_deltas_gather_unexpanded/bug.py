import torch
import torch.nn as nn


class BoxHead(nn.Module):
    def __init__(self, in_features, num_classes):
        super().__init__()
        self.num_classes = num_classes
        self.cls_score = nn.Linear(in_features, num_classes)
        self.bbox_pred = nn.Linear(in_features, num_classes * 4)

    def forward(self, roi_feats):
        return self.cls_score(roi_feats), self.bbox_pred(roi_feats)


def select_class_deltas(bbox_pred, labels, num_classes):
    deltas = bbox_pred.view(bbox_pred.size(0), num_classes, 4)
    index = labels.view(-1, 1, 1)
    return deltas.gather(1, index).squeeze(1)


def apply_deltas(proposals, deltas):
    widths = proposals[:, 2:] - proposals[:, :2]
    return proposals + deltas * widths.repeat(1, 2)


def refine(head, roi_feats, proposals):
    scores, bbox_pred = head(roi_feats)
    labels = scores.argmax(dim=1)
    deltas = select_class_deltas(bbox_pred, labels, head.num_classes)
    return apply_deltas(proposals, deltas), labels


if __name__ == "__main__":
    torch.manual_seed(0)
    head = BoxHead(in_features=32, num_classes=5)
    roi_feats = torch.randn(6, 32)
    xy = torch.rand(6, 2) * 50
    proposals = torch.cat([xy, xy + 10 + torch.rand(6, 2) * 20], dim=1)
    with torch.no_grad():
        boxes, labels = refine(head, roi_feats, proposals)
        bbox_pred = head(roi_feats)[1].view(6, 5, 4)
        ref_deltas = torch.stack([bbox_pred[i, labels[i]] for i in range(6)])
        wh = proposals[:, 2:] - proposals[:, :2]
        ref = proposals + ref_deltas * wh.repeat(1, 2)
    print("refined boxes shape:", tuple(boxes.shape))
    print("max |diff| vs per-box class deltas:", (boxes - ref).abs().max().item())
