import torch
from torch.utils.data import DataLoader, Dataset


class ToySegmentationDataset(Dataset):
    def __init__(self, n_items=8, size=6, n_classes=4):
        g = torch.Generator().manual_seed(0)
        self.images = torch.rand(n_items, 3, size, size, generator=g)
        self.masks = torch.randint(0, n_classes, (n_items, size, size), generator=g)

    def __len__(self):
        return len(self.images)

    def __getitem__(self, i):
        return self.images[i], self.masks[i]


def segmentation_collate(samples):
    """Stack (image, mask) pairs.

    Returns:
        images: float tensor [B, 3, H, W]
        labels: int64 tensor [B, H, W] of class ids
    """
    images, masks = zip(*samples)
    return torch.stack(images), torch.stack(masks)


def labels_to_onehot(labels, n_classes):
    """One-hot encode a batch of segmentation labels.

    Args:
        labels: int64 tensor [B, 1, H, W] of class ids.
        n_classes: number of classes C.
    Returns:
        float tensor [B, C, H, W].
    """
    b, h, w = labels.shape[0], labels.shape[-2], labels.shape[-1]
    onehot = torch.zeros(b, n_classes, h, w)
    return onehot.scatter_(1, labels, 1.0)


def class_pixel_frequencies(loader, n_classes):
    totals = torch.zeros(n_classes)
    for _, labels in loader:
        onehot = labels_to_onehot(labels, n_classes)
        totals += onehot.sum(dim=(0, 2, 3))
    return totals / totals.sum()


if __name__ == "__main__":
    loader = DataLoader(ToySegmentationDataset(), batch_size=4, collate_fn=segmentation_collate)
    print("class frequencies:", class_pixel_frequencies(loader, 4).tolist())
