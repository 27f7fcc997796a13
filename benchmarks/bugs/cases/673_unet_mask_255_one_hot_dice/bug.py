import torch
import torch.nn.functional as F
from torch.utils.data import DataLoader, Dataset


class CarvanaLikeDataset(Dataset):
    """Binary segmentation masks stored as 8-bit PNGs (background 0, foreground 255)."""

    def __init__(self, n_items, size=8, seed=0):
        g = torch.Generator().manual_seed(seed)
        self.images = torch.rand(n_items, 3, size, size, generator=g)
        raw = torch.rand(n_items, size, size, generator=g) > 0.6
        self.masks = raw.to(torch.uint8) * 255

    def __len__(self):
        return len(self.images)

    def __getitem__(self, i):
        return {"image": self.images[i], "mask": self.masks[i].long()}


def multiclass_dice_loss(logits, mask, n_classes, eps=1e-6):
    """Soft dice over all classes.

    Args:
        logits: (N, C, H, W) raw network output, C == n_classes.
        mask: (N, H, W) integer class map with values in [0, n_classes).
    Returns:
        scalar loss.
    """
    probs = logits.softmax(dim=1)
    target = F.one_hot(mask, n_classes).permute(0, 3, 1, 2).float()  # (N, C, H, W)
    inter = (probs * target).sum(dim=(0, 2, 3))
    denom = probs.sum(dim=(0, 2, 3)) + target.sum(dim=(0, 2, 3))
    return 1 - ((2 * inter + eps) / (denom + eps)).mean()


def train_step(net, batch, n_classes):
    logits = net(batch["image"])
    dice = multiclass_dice_loss(logits, batch["mask"], n_classes)
    return dice + F.cross_entropy(logits, batch["mask"])


if __name__ == "__main__":
    torch.manual_seed(0)
    n_classes = 2
    net = torch.nn.Conv2d(3, n_classes, kernel_size=3, padding=1)
    loader = DataLoader(CarvanaLikeDataset(6), batch_size=3)
    for batch in loader:
        print(train_step(net, batch, n_classes).item())
