"""Class-specific box regression outputs of a Fast R-CNN box head (detectron2-style)."""
import torch
import torch.nn as nn


class FastRCNNOutputLayers(nn.Module):
    def __init__(self, input_size, num_classes, box_dim=4):
        super().__init__()
        self.num_classes = num_classes
        self.cls_score = nn.Linear(input_size, num_classes + 1)
        self.bbox_pred = nn.Linear(input_size, num_classes * box_dim)

    def forward(self, x):
        return self.cls_score(x), self.bbox_pred(x)


def predict_deltas_for_gt_classes(pred_proposal_deltas, gt_classes, box_dim=4):
    """Regression deltas of the ground-truth class of every foreground proposal."""
    num_pred = pred_proposal_deltas.shape[0]
    num_classes = pred_proposal_deltas.shape[1] // box_dim
    bg_class_ind = num_classes
    fg_inds = (gt_classes != -1) & (gt_classes != bg_class_ind)
    return pred_proposal_deltas.view(num_pred, num_classes, box_dim)[
        torch.arange(num_pred, dtype=torch.long, device=pred_proposal_deltas.device)[fg_inds], gt_classes[fg_inds]
    ]


def box_reg_loss(pred_deltas_for_gt, gt_deltas):
    return nn.functional.smooth_l1_loss(pred_deltas_for_gt, gt_deltas, beta=0.0, reduction="sum")


if __name__ == "__main__":
    torch.manual_seed(0)
    num_classes = 3
    head = FastRCNNOutputLayers(input_size=16, num_classes=num_classes)
    box_features = torch.randn(8, 16)
    gt_classes = torch.tensor([0, 2, 3, 1, 3, -1, 2, 3])  # 3 = background, -1 = ignored
    gt_deltas = torch.randn(8, 4)
    _, deltas = head(box_features)
    with torch.no_grad():
        selected = predict_deltas_for_gt_classes(deltas, gt_classes)
        fg = (gt_classes >= 0) & (gt_classes < num_classes)
        loss = box_reg_loss(selected, gt_deltas[fg])
    ref = 0.0
    for i in range(8):
        c = int(gt_classes[i])
        if 0 <= c < num_classes:
            ref += (deltas[i, 4 * c : 4 * c + 4].detach() - gt_deltas[i]).abs().sum().item()
    assert selected.shape[0] == int(fg.sum())
    assert abs(loss.item() - ref) < 1e-4
    print("ok")
