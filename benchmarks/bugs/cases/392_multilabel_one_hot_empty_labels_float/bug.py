from dataclasses import dataclass, field

import torch
import torch.nn.functional as F


@dataclass
class MultilabelSample:
    image: torch.Tensor
    label_ids: list = field(default_factory=list)


def encode_multilabel(label_ids, num_classes):
    """Turn the label ids of one image into a multi-hot target.

    Args:
        label_ids (torch.Tensor): shape (K,), the K class ids present in the image (K may be 0).
        num_classes (int): number of classes C.

    Returns:
        torch.Tensor: shape (C,), 1.0 for every present class.
    """
    one_hot = F.one_hot(label_ids, num_classes=num_classes)  # (K, C)
    return one_hot.sum(dim=0).clamp(max=1).float()


def collate_multilabel(samples, num_classes):
    """Stack a list of samples into a batch.

    Returns:
        images (torch.Tensor): shape (B, 3, H, W).
        targets (torch.Tensor): shape (B, C).
    """
    images = torch.stack([s.image for s in samples])
    targets = []
    for s in samples:
        label_ids = torch.as_tensor(s.label_ids)
        targets.append(encode_multilabel(label_ids, num_classes))
    return images, torch.stack(targets)


if __name__ == "__main__":
    cfg = {"num_classes": 4, "image_size": 8}
    samples = [
        MultilabelSample(torch.rand(3, 8, 8), [0, 2]),
        MultilabelSample(torch.rand(3, 8, 8), []),  # background-only image, no labels
        MultilabelSample(torch.rand(3, 8, 8), [3]),
    ]
    images, targets = collate_multilabel(samples, cfg["num_classes"])
    print(images.shape, targets)
