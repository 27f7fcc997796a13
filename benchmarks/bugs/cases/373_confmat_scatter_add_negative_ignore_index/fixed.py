from typing import Optional

import torch


class MulticlassPrecision:
    """Macro precision accumulated over batches through a confusion matrix.

    Args:
        num_classes: number of classes ``C``.
        ignore_index: target value whose samples are left out of the statistics.
    """

    def __init__(self, num_classes: int, ignore_index: Optional[int] = None):
        self.num_classes = num_classes
        self.ignore_index = ignore_index
        self.confmat = torch.zeros(num_classes * num_classes, dtype=torch.long)

    def update(self, preds: torch.Tensor, target: torch.Tensor) -> None:
        """Add a batch.

        Args:
            preds: ``(N,)`` predicted class ids in ``[0, C)``.
            target: ``(N,)`` ground-truth class ids, or ``ignore_index``.
        """
        if self.ignore_index is not None:
            keep = target != self.ignore_index
            preds, target = preds[keep], target[keep]
        bins = target * self.num_classes + preds
        self.confmat.scatter_add_(0, bins, torch.ones_like(bins))

    def compute(self) -> torch.Tensor:
        """Returns: scalar macro precision over the classes that were predicted at least once."""
        cm = self.confmat.view(self.num_classes, self.num_classes).float()
        predicted = cm.sum(0)
        tp = cm.diagonal()
        valid = predicted > 0
        return (tp[valid] / predicted[valid]).mean()


if __name__ == "__main__":
    metric = MulticlassPrecision(num_classes=4, ignore_index=-1)
    preds = torch.tensor([2, 1, 0, 3, 1, 2, 3, 1, 0, 3, 2, 0])
    target = torch.tensor([2, 1, 0, 3, -1, 0, 0, 1, 2, 3, -1, 0])
    metric.update(preds, target)
    result = metric.compute().item()

    tp = [0] * 4
    npred = [0] * 4
    for p, t in zip(preds.tolist(), target.tolist()):
        if t == -1:
            continue
        npred[p] += 1
        tp[p] += int(p == t)
    per_class = [tp[c] / npred[c] for c in range(4) if npred[c] > 0]
    ref = sum(per_class) / len(per_class)
    assert abs(result - ref) < 1e-6, (result, ref)
    print("ok")
