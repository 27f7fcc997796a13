import torch
import torch.nn.functional as F
from jaxtyping import Float, Int
from torch import Tensor


def convert_to_one_hot(targets: Int[Tensor, "n 1"], classes: int) -> Int[Tensor, "n classes"]:
    """Convert a column of class indices to one-hot rows."""
    assert (torch.max(targets).item() <
            classes), 'Class Index must be less than number of classes'
    one_hot_targets = F.one_hot(targets.long().squeeze(), num_classes=classes)
    return one_hot_targets


class SupportPrecisionRecall:
    """Streaming per-class precision / recall / support for a classifier."""

    def __init__(self, num_classes: int):
        self.num_classes = num_classes
        self.tp = torch.zeros(num_classes, dtype=torch.long)
        self.pred_positive = torch.zeros(num_classes, dtype=torch.long)
        self.support = torch.zeros(num_classes, dtype=torch.long)

    def update(self, cls_score: Float[Tensor, "n classes"], gt_label: Int[Tensor, " n"]) -> None:
        pred_label: Int[Tensor, "n 1"] = cls_score.argmax(dim=1, keepdim=True)
        pred_positive = convert_to_one_hot(pred_label, self.num_classes)
        gt_positive = convert_to_one_hot(gt_label.view(-1, 1), self.num_classes)
        self.tp += (pred_positive * gt_positive).sum(0)
        self.pred_positive += pred_positive.sum(0)
        self.support += gt_positive.sum(0)

    def compute(self) -> dict:
        precision = self.tp / self.pred_positive.clamp(min=1)
        recall = self.tp / self.support.clamp(min=1)
        return {"precision": precision, "recall": recall, "support": self.support.clone()}


def batches(scores: Float[Tensor, "total classes"], labels: Int[Tensor, " total"], batch_size: int):
    for start in range(0, scores.shape[0], batch_size):
        yield scores[start:start + batch_size], labels[start:start + batch_size]


if __name__ == "__main__":
    torch.manual_seed(0)
    num_classes = 5
    scores = torch.randn(17, num_classes)
    labels = torch.randint(0, num_classes, (17,))

    metric = SupportPrecisionRecall(num_classes)
    for batch_scores, batch_labels in batches(scores, labels, batch_size=8):
        metric.update(batch_scores, batch_labels)
    result = metric.compute()

    preds = scores.argmax(dim=1).tolist()
    ref_support = [sum(1 for t in labels.tolist() if t == c) for c in range(num_classes)]
    ref_tp = [sum(1 for p, t in zip(preds, labels.tolist()) if p == t == c) for c in range(num_classes)]
    print("support:", result["support"].tolist(), "expected", ref_support, "(total", int(result["support"].sum()), "for 17 samples)")
    print("true positives:", metric.tp.tolist(), "expected", ref_tp)
