import torch
import torch.nn as nn


class FastRCNNPredictor(nn.Module):
    """Box head: class scores and class-specific box deltas for every RoI.

    Args:
        in_channels: size of the pooled RoI feature.
        num_classes: number of classes including background (index 0).
    """

    def __init__(self, in_channels, num_classes):
        super().__init__()
        self.num_classes = num_classes
        self.cls_score = nn.Linear(in_channels, num_classes)
        self.bbox_pred = nn.Linear(in_channels, num_classes * 4)

    def forward(self, roi_feats):
        """
        Args:
            roi_feats: tensor of shape (num_rois, in_channels).

        Returns:
            scores of shape (num_rois, num_classes) and deltas of shape (num_rois, num_classes, 4).
        """
        return self.cls_score(roi_feats), self.bbox_pred(roi_feats).view(-1, self.num_classes, 4)


def select_class_deltas(deltas, labels):
    """
    Args:
        deltas: tensor of shape (num_rois, num_classes, 4).
        labels: long tensor of shape (num_rois,).

    Returns:
        tensor of shape (num_rois, 4): the deltas of each RoI's own class.
    """
    index = labels.view(-1, 1, 1).expand(-1, 1, deltas.size(-1))
    return deltas.gather(1, index).squeeze(1)


def apply_deltas(boxes, deltas):
    """
    Args:
        boxes: tensor of shape (num_rois, 4) as x1, y1, x2, y2.
        deltas: tensor of shape (num_rois, 4) as dx, dy, dw, dh.

    Returns:
        tensor of shape (num_rois, 4).
    """
    w, h = boxes[:, 2] - boxes[:, 0], boxes[:, 3] - boxes[:, 1]
    cx, cy = boxes[:, 0] + 0.5 * w, boxes[:, 1] + 0.5 * h
    pcx, pcy = cx + deltas[:, 0] * w, cy + deltas[:, 1] * h
    pw, ph = w * deltas[:, 2].exp(), h * deltas[:, 3].exp()
    return torch.stack([pcx - 0.5 * pw, pcy - 0.5 * ph, pcx + 0.5 * pw, pcy + 0.5 * ph], dim=1)


def postprocess(predictor, roi_feats, proposals):
    scores, deltas = predictor(roi_feats)
    probs = scores.softmax(-1)
    fg_probs, fg_labels = probs[:, 1:].max(dim=1)
    labels = fg_labels + 1
    boxes = apply_deltas(proposals, select_class_deltas(deltas, labels))
    return boxes, labels, fg_probs


if __name__ == "__main__":
    torch.manual_seed(0)
    predictor = FastRCNNPredictor(in_channels=16, num_classes=4).eval()
    roi_feats = torch.randn(6, 16)
    xy = torch.rand(6, 2) * 50
    proposals = torch.cat([xy, xy + 10 + torch.rand(6, 2) * 20], dim=1)
    with torch.no_grad():
        boxes, labels, fg_probs = postprocess(predictor, roi_feats, proposals)
        scores, deltas = predictor(roi_feats)
        for i in range(6):
            p = scores[i].softmax(0)
            c = max(range(1, 4), key=lambda j: p[j].item())
            assert labels[i].item() == c and abs(fg_probs[i].item() - p[c].item()) < 1e-6
            ref = apply_deltas(proposals[i:i + 1], deltas[i, c].view(1, 4))[0]
            assert torch.allclose(boxes[i], ref, atol=1e-5)
    print("ok")
