import torch
import torch.nn as nn


def box_iou(a, b):
    lt = torch.max(a[:, None, :2], b[None, :, :2])
    rb = torch.min(a[:, None, 2:], b[None, :, 2:])
    inter = (rb - lt).clamp(min=0).prod(-1)
    area = lambda x: (x[:, 2:] - x[:, :2]).prod(-1)
    return inter / (area(a)[:, None] + area(b)[None, :] - inter)


def sample_rois(proposals, gt_boxes, gt_labels, cfg):
    iou = box_iou(proposals, gt_boxes)
    max_iou, assigned = iou.max(dim=1)
    fg = torch.nonzero(max_iou >= cfg["fg_thresh"]).flatten()[: int(cfg["rois_per_image"] * cfg["fg_fraction"])]
    bg = torch.nonzero(max_iou < cfg["fg_thresh"]).flatten()[: cfg["rois_per_image"] - fg.numel()]
    keep = torch.cat([fg, bg])
    labels = torch.zeros(cfg["rois_per_image"], dtype=torch.long)
    labels[: fg.numel()] = gt_labels[assigned[fg]]
    return proposals[keep], labels


class BoxHead(nn.Module):
    def __init__(self, cfg):
        super().__init__()
        self.n_classes = cfg["n_classes"]
        self.fc = nn.Linear(4, 32)
        self.cls = nn.Linear(32, cfg["n_classes"])
        self.bbox = nn.Linear(32, cfg["n_classes"] * 4)

    def forward(self, rois, rois_label):
        h = torch.relu(self.fc(rois / 100))
        bbox_pred = self.bbox(h)
        bbox_pred_view = bbox_pred.view(bbox_pred.size(0), self.n_classes, 4)
        index = rois_label.view(rois_label.size(0), 1, 1).expand(rois_label.size(0), 1, 4)
        bbox_pred_select = torch.gather(bbox_pred_view, 1, index)
        return self.cls(h), bbox_pred_select.squeeze(1)


if __name__ == "__main__":
    torch.manual_seed(0)
    cfg = {"rois_per_image": 16, "fg_fraction": 0.25, "fg_thresh": 0.5, "n_classes": 3}
    xy = torch.rand(12, 2) * 80
    proposals = torch.cat([xy, xy + 10 + torch.rand(12, 2) * 20], dim=1)
    gt_boxes = proposals[:2] + torch.randn(2, 4)
    gt_labels = torch.tensor([1, 2])
    rois, rois_label = sample_rois(proposals, gt_boxes, gt_labels, cfg)
    head = BoxHead(cfg)
    scores, deltas = head(rois, rois_label)
    print(scores.shape, deltas.shape)
