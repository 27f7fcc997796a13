import torch
import torch.nn.functional as F


def _expand_onehot_labels(labels, label_weights, label_channels):
    """Expand class labels to binary targets for sigmoid classification.

    Args:
        labels (Tensor): (N,) class index of each anchor, in [0, num_classes],
            where num_classes denotes background.
        label_weights (Tensor): (N,) weight of each anchor.
        label_channels (int): number of foreground classes C.

    Returns:
        tuple[Tensor]: binary labels (N, C) and expanded weights (N, C).
    """
    bin_labels = labels.new_full((labels.size(0), label_channels), 0)
    inds = torch.nonzero((labels >= 0) & (labels < label_channels), as_tuple=False).squeeze(1)
    if inds.numel() > 0:
        bin_labels[inds, labels[inds] - 1] = 1
    bin_label_weights = label_weights.view(-1, 1).expand(label_weights.size(0), label_channels)
    return bin_labels, bin_label_weights


def ghmc_loss(pred, target, label_weight, bins=10):
    """GHM-C loss.

    Args:
        pred (Tensor): (N, C) classification logits.
        target (Tensor): (N,) class labels, num_classes for background.
        label_weight (Tensor): (N,) anchor weights.
    """
    target, label_weight = _expand_onehot_labels(target, label_weight, pred.size(-1))
    target, label_weight = target.float(), label_weight.float()
    g = torch.abs(pred.sigmoid().detach() - target)
    edges = torch.linspace(0, 1, bins + 1)
    edges[-1] += 1e-6
    weights = torch.zeros_like(pred)
    valid = label_weight > 0
    tot = max(valid.float().sum().item(), 1.0)
    n = 0
    for i in range(bins):
        inds = (g >= edges[i]) & (g < edges[i + 1]) & valid
        if inds.sum() > 0:
            weights[inds] = tot / inds.sum()
            n += 1
    weights = weights / max(n, 1)
    return F.binary_cross_entropy_with_logits(pred, target, weights, reduction="sum") / tot


if __name__ == "__main__":
    torch.manual_seed(0)
    num_classes, num_anchors = 4, 12
    labels = torch.tensor([0, 1, 2, 3, 4, 0, 4, 2, 1, 0, 3, 4])
    pred = torch.randn(num_anchors, num_classes)
    bin_labels, _ = _expand_onehot_labels(labels, torch.ones(num_anchors), num_classes)
    ref = torch.zeros(num_anchors, num_classes, dtype=torch.long)
    for i in range(num_anchors):
        if 0 <= labels[i] < num_classes:
            ref[i, labels[i]] = 1
    print("anchors with wrong one-hot target:", int((bin_labels != ref).any(dim=1).sum()), "of", int((labels < num_classes).sum()))
    print("class-0 anchors marked as class:", bin_labels[labels == 0].argmax(dim=1).tolist())
    print("loss: %.4f" % ghmc_loss(pred, labels, torch.ones(num_anchors)).item())
