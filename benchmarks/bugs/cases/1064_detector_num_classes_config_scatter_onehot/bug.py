import torch
import torch.nn as nn
import torch.nn.functional as F


class Exp:
    num_classes = 11
    in_channels = 32


class DecoupledClsHead(nn.Module):
    def __init__(self, exp):
        super().__init__()
        self.num_classes = exp.num_classes
        self.stem = nn.Conv2d(exp.in_channels, 32, 1)
        self.cls_pred = nn.Conv2d(32, self.num_classes, 1)

    def forward(self, feat):
        out = self.cls_pred(torch.relu(self.stem(feat)))
        return out.flatten(2).transpose(1, 2)

    def get_cls_loss(self, cls_out, fg_anchor_idx, gt_classes, ious):
        cls_logits = cls_out.reshape(-1, self.num_classes)[fg_anchor_idx]
        cls_target = torch.zeros(gt_classes.size(0), self.num_classes)
        cls_target.scatter_(1, gt_classes.long().unsqueeze(1), 1.0)
        cls_target = cls_target * ious.unsqueeze(-1)
        return F.binary_cross_entropy_with_logits(cls_logits, cls_target, reduction="sum") / max(1, gt_classes.numel())


def load_annotations():
    # class ids as written by the dataset converter
    return torch.tensor([0, 3, 11, 7, 5, 11, 2])


if __name__ == "__main__":
    torch.manual_seed(0)
    head = DecoupledClsHead(Exp())
    cls_out = head(torch.randn(2, 32, 4, 4))
    gt_classes = load_annotations()
    fg_anchor_idx = torch.tensor([1, 5, 9, 14, 20, 27, 30])
    ious = torch.rand(gt_classes.size(0))
    print("cls loss", head.get_cls_loss(cls_out, fg_anchor_idx, gt_classes, ious).item())
