import torch
from torch.nn.modules.loss import _Loss


def one_hot(labels, num_classes, dtype=torch.float, dim=1):
    """Convert a label map to one-hot format.

    Args:
        labels: integer label tensor of shape B1H[WD]; values must be in [0, num_classes).
        num_classes: number of output channels N.

    Returns:
        tensor of shape BNH[WD].
    """
    shape = list(labels.shape)
    shape[dim] = num_classes
    out = torch.zeros(size=shape, dtype=dtype, device=labels.device)
    return out.scatter_(dim=dim, index=labels.long(), value=1)


class TverskyLoss(_Loss):
    """Tversky loss for multi-class segmentation with optional ignored voxels.

    Args:
        alpha: weight of false positives.
        beta: weight of false negatives.
        ignore_index: label value whose voxels are excluded from the loss.
    """

    def __init__(self, alpha=0.5, beta=0.5, ignore_index=None, smooth_nr=1e-5, smooth_dr=1e-5):
        super().__init__()
        self.alpha, self.beta, self.ignore_index = alpha, beta, ignore_index
        self.smooth_nr, self.smooth_dr = smooth_nr, smooth_dr

    def forward(self, input, target):
        """
        Args:
            input: the shape should be BNH[WD] (logits).
            target: the shape should be B1H[WD] (class indices).
        """
        n_pred_ch = input.shape[1]
        input = torch.softmax(input, dim=1)
        original_target = target
        target = one_hot(target, num_classes=n_pred_ch)
        if self.ignore_index is not None:
            mask = (original_target != self.ignore_index).to(input.dtype)
            input, target = input * mask, target * mask
        reduce_axis = list(range(2, input.dim()))
        tp = (input * target).sum(reduce_axis)
        fp = self.alpha * (input * (1 - target)).sum(reduce_axis)
        fn = self.beta * ((1 - input) * target).sum(reduce_axis)
        score = (tp + self.smooth_nr) / (tp + fp + fn + self.smooth_dr)
        return (1.0 - score).mean()


if __name__ == "__main__":
    torch.manual_seed(0)
    logits = torch.randn(2, 3, 8, 8, 4)
    labels = torch.randint(0, 3, (2, 1, 8, 8, 4))
    labels[:, :, :, :2, :] = 255  # slices outside the annotated field of view
    loss = TverskyLoss(alpha=0.3, beta=0.7, ignore_index=255)(logits, labels)
    print("tversky loss:", loss.item())
