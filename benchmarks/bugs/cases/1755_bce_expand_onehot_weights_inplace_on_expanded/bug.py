import torch
import torch.nn.functional as F


def _expand_onehot_labels(labels, label_weights, target_shape, ignore_index):
    """Expand onehot labels to match the size of prediction.

    Args:
        labels (torch.Tensor): The ground truth of shape (N, H, W).
        label_weights (torch.Tensor | None): Pixel-wise weights of shape (N, H, W).
        target_shape (torch.Size): Shape of the prediction, (N, C, H, W).
        ignore_index (int): Label index to be ignored.

    Returns:
        tuple[torch.Tensor]: Binary labels and their weights, both (N, C, H, W).
    """
    bin_labels = labels.new_zeros(target_shape)
    valid_mask = (labels >= 0) & (labels != ignore_index)
    inds = torch.nonzero(valid_mask, as_tuple=True)
    if inds[0].numel() > 0:
        bin_labels[inds[0], labels[valid_mask], inds[1], inds[2]] = 1
    valid_mask = valid_mask.unsqueeze(1).expand(target_shape).float()
    if label_weights is None:
        bin_label_weights = valid_mask
    else:
        bin_label_weights = label_weights.unsqueeze(1).expand(target_shape)
        bin_label_weights *= valid_mask
    return bin_labels, bin_label_weights


def binary_cross_entropy(pred, label, weight=None, ignore_index=255):
    """Sigmoid BCE for multi-class segmentation.

    Args:
        pred (torch.Tensor): Logits of shape (N, C, H, W).
        label (torch.Tensor): Class indices of shape (N, H, W).
        weight (torch.Tensor, optional): Pixel weights of shape (N, H, W).
    """
    label, weight = _expand_onehot_labels(label, weight, pred.shape, ignore_index)
    loss = F.binary_cross_entropy_with_logits(pred, label.float(), reduction="none")
    return (loss * weight).sum() / weight.sum().clamp(min=1.0)


if __name__ == "__main__":
    torch.manual_seed(0)
    pred = torch.randn(2, 4, 8, 8)
    label = torch.randint(0, 4, (2, 8, 8))
    label[:, :2, :] = 255
    weight = torch.rand(2, 8, 8)
    print("loss:", binary_cross_entropy(pred, label, weight).item())
