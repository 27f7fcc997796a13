import torch
import torch.nn.functional as F
from torch.nn.modules.loss import _Loss


def soft_dice_score(output, target, smooth=0.0, eps=1e-7, dims=None):
    """
    Args:
        output (`torch.Tensor` of shape `(batch_size, num_classes, num_pixels)`): predicted probabilities.
        target (`torch.Tensor` of shape `(batch_size, num_classes, num_pixels)`): one-hot targets.
        dims (`tuple`): dimensions to reduce over.

    Returns:
        `torch.Tensor` of shape `(num_classes,)` when `dims=(0, 2)`.
    """
    intersection = torch.sum(output * target, dim=dims)
    cardinality = torch.sum(output + target, dim=dims)
    return (2.0 * intersection + smooth) / (cardinality + smooth).clamp_min(eps)


class MulticlassDiceLoss(_Loss):
    """
    Dice loss for multi-class segmentation with an optional ignore label.

    Args:
        ignore_index (`int`, *optional*): label value of pixels that must not contribute to the loss.
        smooth (`float`): additive smoothing in numerator and denominator.
    """

    def __init__(self, ignore_index=None, smooth=0.0, eps=1e-7):
        super().__init__()
        self.ignore_index = ignore_index
        self.smooth = smooth
        self.eps = eps

    def forward(self, y_pred, y_true):
        """
        Args:
            y_pred (`torch.Tensor` of shape `(batch_size, num_classes, height, width)`): raw logits.
            y_true (`torch.LongTensor` of shape `(batch_size, height, width)`): class ids, or `ignore_index`.

        Returns:
            `torch.Tensor`: scalar loss averaged over the classes present in `y_true`.
        """
        bs, num_classes = y_pred.shape[:2]
        dims = (0, 2)
        y_pred = y_pred.log_softmax(dim=1).exp().view(bs, num_classes, -1)
        y_true = y_true.view(bs, -1)

        if self.ignore_index is not None:
            mask = y_true != self.ignore_index
            y_pred = y_pred * mask.unsqueeze(1)
            y_true = y_true * mask

        y_true = F.one_hot(y_true, num_classes)
        y_true = y_true.permute(0, 2, 1)

        scores = soft_dice_score(y_pred, y_true.type_as(y_pred), self.smooth, self.eps, dims=dims)
        loss = 1.0 - scores
        present = (y_true.sum(dims) > 0).to(loss.dtype)
        return (loss * present).mean(), scores


def make_batch(generator, num_classes=3, ignore_index=255):
    """Logits and labels of a toy scene whose 4-pixel border is unlabeled (`ignore_index`)."""
    logits = torch.randn(2, num_classes, 16, 16, generator=generator)
    labels = torch.randint(0, num_classes, (2, 16, 16), generator=generator)
    logits = logits + 4.0 * F.one_hot(labels, num_classes).permute(0, 3, 1, 2)
    labels[:, :4, :] = ignore_index
    labels[:, -4:, :] = ignore_index
    return logits, labels


if __name__ == "__main__":
    g = torch.Generator().manual_seed(0)
    logits, labels = make_batch(g)
    criterion = MulticlassDiceLoss(ignore_index=255)
    loss, scores = criterion(logits, labels)

    valid = labels != 255
    cropped_logits, cropped_labels = logits[:, :, 4:-4, :], labels[:, 4:-4, :]
    cropped_loss, cropped_scores = MulticlassDiceLoss()(cropped_logits, cropped_labels)
    print("fraction of ignored pixels:", 1.0 - valid.float().mean().item())
    print("dice per class with ignore_index=255:", [round(s, 4) for s in scores.tolist()])
    print("dice per class on the labeled crop:  ", [round(s, 4) for s in cropped_scores.tolist()])
    print("loss:", round(loss.item(), 4), "labeled-crop loss:", round(cropped_loss.item(), 4))
