import numpy as np
import torch
from torch.utils.data import DataLoader, Dataset


class BraTSSlices(Dataset):
    """Axial MRI slices with their tumour label maps (0 bg, 1 necrosis, 2 edema, 3 enhancing)."""

    def __init__(self, n_items=6, size=16, seed=0):
        rng = np.random.default_rng(seed)
        self.images = rng.standard_normal((n_items, 4, size, size)).astype(np.float32)
        self.masks = rng.integers(0, 4, (n_items, size, size)).astype(np.uint8)

    def __len__(self):
        return len(self.images)

    def __getitem__(self, i):
        # image: (4, H, W) float32, mask: (1, H, W) as stored in the .png label files
        image = torch.from_numpy(self.images[i])
        mask = torch.from_numpy(self.masks[i]).unsqueeze(0)
        return image, mask


def expand_as_one_hot(labels, n_classes):
    # labels: (B, 1, H, W) -> one-hot (B, C, H, W)
    shape = list(labels.shape)
    shape[1] = n_classes
    return torch.zeros(shape).scatter_(1, labels, 1)


def soft_dice(probs, target, eps=1e-5):
    # probs, target: (B, C, H, W)
    inter = (probs * target).sum(dim=(0, 2, 3))
    denom = probs.sum(dim=(0, 2, 3)) + target.sum(dim=(0, 2, 3))
    return 1.0 - ((2 * inter + eps) / (denom + eps)).mean()


def train_step(model, batch, n_classes=4):
    images, masks = batch                      # (B, 4, H, W), (B, 1, H, W)
    probs = model(images).softmax(dim=1)       # (B, C, H, W)
    target = expand_as_one_hot(masks, n_classes)
    return soft_dice(probs, target)


if __name__ == "__main__":
    torch.manual_seed(0)
    loader = DataLoader(BraTSSlices(), batch_size=3)
    model = torch.nn.Conv2d(4, 4, kernel_size=3, padding=1)
    for batch in loader:
        loss = train_step(model, batch)
        print("dice loss:", loss.item())
