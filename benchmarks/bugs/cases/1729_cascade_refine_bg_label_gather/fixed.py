import torch


def delta2bbox(rois, deltas):
    """Apply (dx, dy, dw, dh) deltas to boxes.

    Args:
        rois (Tensor): shape (n, 4), boxes as (x1, y1, x2, y2).
        deltas (Tensor): shape (n, 4).

    Returns:
        Tensor: shape (n, 4).
    """
    w = rois[:, 2] - rois[:, 0]
    h = rois[:, 3] - rois[:, 1]
    cx = rois[:, 0] + 0.5 * w + deltas[:, 0] * w
    cy = rois[:, 1] + 0.5 * h + deltas[:, 1] * h
    w = w * deltas[:, 2].exp()
    h = h * deltas[:, 3].exp()
    return torch.stack([cx - 0.5 * w, cy - 0.5 * h, cx + 0.5 * w, cy + 0.5 * h], dim=1)


class BBoxHead:
    def __init__(self, num_classes):
        self.num_classes = num_classes

    def regress_by_class(self, rois, label, bbox_pred):
        """Regress the bbox for the predicted class. Used in Cascade R-CNN.

        Args:
            rois (Tensor): shape (n, 4).
            label (Tensor): shape (n, ), class ids in [0, num_classes).
            bbox_pred (Tensor): shape (n, 4 * num_classes).

        Returns:
            Tensor: regressed boxes, shape (n, 4).
        """
        cols = label[:, None] * 4 + torch.arange(4, device=label.device)
        bbox_pred = torch.gather(bbox_pred, 1, cols)
        return delta2bbox(rois, bbox_pred)

    def refine_bboxes(self, rois, labels, bbox_preds, cls_scores):
        """Refine proposals for the next cascade stage.

        Args:
            rois (Tensor): shape (n, 4).
            labels (Tensor): shape (n, ), sampled targets; background is num_classes.
            bbox_preds (Tensor): shape (n, 4 * num_classes).
            cls_scores (Tensor): shape (n, num_classes + 1).

        Returns:
            Tensor: refined boxes, shape (n, 4).
        """
        labels = torch.where(labels == self.num_classes, cls_scores[:, :-1].argmax(1), labels)
        return self.regress_by_class(rois, labels, bbox_preds)


if __name__ == "__main__":
    torch.manual_seed(0)
    head = BBoxHead(num_classes=5)
    xy = torch.rand(8, 2) * 50
    rois = torch.cat([xy, xy + 10 + torch.rand(8, 2) * 20], dim=1)
    labels = torch.tensor([0, 3, 1, 5, 4, 5, 2, 5])
    bbox_preds = torch.randn(8, 4 * 5) * 0.1
    cls_scores = torch.randn(8, 5 + 1)
    refined = head.refine_bboxes(rois, labels, bbox_preds, cls_scores)

    ref = []
    for i in range(8):
        c = labels[i].item()
        if c == 5:
            c = max(range(5), key=lambda j: cls_scores[i, j].item())
        ref.append(delta2bbox(rois[i:i + 1], bbox_preds[i:i + 1, 4 * c:4 * c + 4])[0])
    assert torch.allclose(refined, torch.stack(ref), atol=1e-5)
    print("ok")
