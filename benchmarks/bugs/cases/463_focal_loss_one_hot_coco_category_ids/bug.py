import torch
import torch.nn.functional as F
from torch import nn


def one_hot_embedding(labels, num_classes):
    # labels: [N] int64, num_classes: C  ->  [N, C]
    y = torch.eye(num_classes)
    return y[labels]


class FocalLoss(nn.Module):
    def __init__(self, num_classes=80, alpha=0.25, gamma=2.0):
        super().__init__()
        self.num_classes = num_classes
        self.alpha = alpha
        self.gamma = gamma

    def forward(self, cls_preds, cls_targets):
        # cls_preds: [N, C] logits, cls_targets: [N] class index per positive anchor
        t = one_hot_embedding(cls_targets, self.num_classes)
        p = cls_preds.sigmoid()
        pt = p * t + (1 - p) * (1 - t)
        w = self.alpha * t + (1 - self.alpha) * (1 - t)
        w = (w * (1 - pt).pow(self.gamma)).detach()
        return F.binary_cross_entropy_with_logits(cls_preds, t, w, reduction="sum")


def parse_annotations(anns):
    # anns: list of COCO dicts {"bbox": [x, y, w, h], "category_id": int in 1..90}
    boxes = torch.tensor([a["bbox"] for a in anns], dtype=torch.float32)  # [K, 4]
    labels = torch.tensor([a["category_id"] - 1 for a in anns])           # [K]
    return boxes, labels


if __name__ == "__main__":
    torch.manual_seed(0)
    anns = [
        {"bbox": [10, 20, 50, 40], "category_id": 1},   # person
        {"bbox": [30, 35, 20, 60], "category_id": 18},  # dog
        {"bbox": [5, 5, 100, 80], "category_id": 62},   # chair
        {"bbox": [60, 10, 30, 30], "category_id": 88},  # teddy bear
    ]
    boxes, labels = parse_annotations(anns)
    criterion = FocalLoss(num_classes=80)
    logits = torch.randn(labels.shape[0], 80, requires_grad=True)  # [K, 80]
    loss = criterion(logits, labels)
    loss.backward()
    print("focal loss:", loss.item())
