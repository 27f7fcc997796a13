import torch
import torch.nn as nn


def apply_deltas(boxes, deltas):
    """Decode (dx, dy, dw, dh) deltas on top of reference boxes.

    Args:
        boxes (Tensor): (n, 4) boxes as x1, y1, x2, y2.
        deltas (Tensor): (n, 4) regression deltas.

    Returns:
        Tensor: (n, 4) decoded boxes.
    """
    widths = boxes[:, 2] - boxes[:, 0]
    heights = boxes[:, 3] - boxes[:, 1]
    ctr_x = boxes[:, 0] + 0.5 * widths
    ctr_y = boxes[:, 1] + 0.5 * heights
    dx, dy, dw, dh = deltas.unbind(-1)
    px = ctr_x + dx * widths
    py = ctr_y + dy * heights
    pw = widths * dw.clamp(max=4.0).exp()
    ph = heights * dh.clamp(max=4.0).exp()
    return torch.stack([px - 0.5 * pw, py - 0.5 * ph, px + 0.5 * pw, py + 0.5 * ph], dim=-1)


class ClassAwareBoxHead(nn.Module):
    """Cascade stage box head with class-specific box regression.

    Args:
        in_channels (int): size of a pooled RoI feature.
        num_classes (int): number of foreground classes; the classifier has one
            extra background column at the end.
    """

    def __init__(self, in_channels, num_classes):
        super().__init__()
        self.num_classes = num_classes
        self.fc_cls = nn.Linear(in_channels, num_classes + 1)
        self.fc_reg = nn.Linear(in_channels, 4 * num_classes)

    def forward(self, roi_feats):
        """
        Args:
            roi_feats (Tensor): (num_rois, in_channels).

        Returns:
            tuple[Tensor, Tensor]: cls_score (num_rois, num_classes + 1) and
                bbox_pred (num_rois, 4 * num_classes).
        """
        return self.fc_cls(roi_feats), self.fc_reg(roi_feats)

    def regress_by_class(self, rois, label, bbox_pred):
        """Refine the RoIs of one image with the deltas of their predicted class.

        Args:
            rois (Tensor): (n, 4) boxes of one image.
            label (Tensor): (n,) predicted foreground class of every RoI.
            bbox_pred (Tensor): (n, 4 * num_classes) deltas of the same RoIs.

        Returns:
            Tensor: (n, 4) refined boxes.
        """
        inds = (label * 4).unsqueeze(-1) + torch.arange(4, device=label.device)
        deltas = torch.gather(bbox_pred, 1, inds)
        return apply_deltas(rois, deltas)


def refine_stage(head, roi_feats, rois, num_rois_per_img):
    """Run one cascade stage and refine the proposals image by image.

    Args:
        head (ClassAwareBoxHead): the stage head.
        roi_feats (Tensor): (sum(n_i), in_channels) features of all RoIs in the batch.
        rois (Tensor): (sum(n_i), 4) the RoIs, images concatenated.
        num_rois_per_img (list[int]): n_i for every image.

    Returns:
        list[Tensor]: refined boxes (n_i, 4) per image.
    """
    cls_score, bbox_pred = head(roi_feats)
    cls_score = cls_score.split(num_rois_per_img, 0)
    bbox_pred = bbox_pred.split(num_rois_per_img, 0)
    rois = rois.split(num_rois_per_img, 0)
    refined = []
    for j in range(len(num_rois_per_img)):
        if rois[j].shape[0] > 0:
            bbox_label = cls_score[j][:, :-1].argmax(dim=1)
            refined.append(head.regress_by_class(rois[j], bbox_label, bbox_pred[j]))
    return refined


if __name__ == "__main__":
    torch.manual_seed(0)
    head = ClassAwareBoxHead(in_channels=64, num_classes=5)
    num_rois_per_img = [6, 4]
    roi_feats = torch.randn(10, 64)
    xy = torch.rand(10, 2) * 100
    rois = torch.cat([xy, xy + 10 + torch.rand(10, 2) * 40], dim=1)
    with torch.no_grad():
        refined = refine_stage(head, roi_feats, rois, num_rois_per_img)
        cls_score, bbox_pred = head(roi_feats)
        ref = []
        for i in range(10):
            label = int(cls_score[i, :-1].argmax())
            deltas = bbox_pred[i, 4 * label:4 * label + 4]
            ref.append(apply_deltas(rois[i:i + 1], deltas.unsqueeze(0))[0])
        ref = torch.stack(ref)
    assert [r.shape[0] for r in refined] == num_rois_per_img
    assert torch.allclose(torch.cat(refined), ref, atol=1e-5)
    print("ok")
