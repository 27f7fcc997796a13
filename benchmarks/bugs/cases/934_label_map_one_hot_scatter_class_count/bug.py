import torch
from torch.utils.data import DataLoader, Dataset

CONFIG = {"num_classes": 4, "patch": 8}   # liver, kidney, spleen, pancreas


class OrganPatches(Dataset):
    """Synthetic CT patches with an integer organ map.

    __getitem__ returns (image, label) where image is (1, H, W) float and label is
    (1, H, W) int64 with 0 = background and 1..4 = organ ids.
    """

    def __init__(self, n, patch):
        g = torch.Generator().manual_seed(0)
        self.images = torch.randn(n, 1, patch, patch, generator=g)
        self.labels = torch.randint(0, 5, (n, 1, patch, patch), generator=g)

    def __len__(self):
        return len(self.images)

    def __getitem__(self, i):
        return self.images[i], self.labels[i]


class OneHot:
    """Turn a label map into per-class channels.

    Args:
        label (Tensor): (N, 1, H, W) int64 class ids.

    Returns:
        Tensor: (N, num_classes, H, W) float32, one channel per class.
    """

    def __init__(self, num_classes):
        self.num_classes = num_classes

    def __call__(self, label):
        n, _, h, w = label.shape
        result = torch.zeros((n, self.num_classes, h, w), dtype=torch.float32)
        result.scatter_(1, label, 1.0)
        return result


def dice_per_class(probs, target_oh, eps=1e-6):
    """probs, target_oh: (N, C, H, W) -> (C,) soft Dice."""
    inter = (probs * target_oh).sum(dim=(0, 2, 3))
    denom = probs.sum(dim=(0, 2, 3)) + target_oh.sum(dim=(0, 2, 3))
    return (2 * inter + eps) / (denom + eps)


if __name__ == "__main__":
    loader = DataLoader(OrganPatches(6, CONFIG["patch"]), batch_size=3)
    to_onehot = OneHot(CONFIG["num_classes"])
    for image, label in loader:
        target = to_onehot(label)
        probs = torch.softmax(torch.randn_like(target), dim=1)
        print("dice", dice_per_class(probs, target))
