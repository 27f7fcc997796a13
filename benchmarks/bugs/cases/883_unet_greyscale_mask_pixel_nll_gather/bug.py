import numpy as np
import torch
import torch.nn.functional as F
from torch.utils.data import DataLoader, Dataset


class CarvanaLikeDataset(Dataset):
    """Image/mask pairs for binary segmentation.

    Each item is a dict with
        image: float tensor of shape (3, H, W) in [0, 1]
        mask:  long tensor of shape (H, W) with the class id of every pixel
    """

    def __init__(self, n_items=4, size=8, seed=0):
        rng = np.random.default_rng(seed)
        self.images = rng.random((n_items, size, size, 3), dtype=np.float32)
        # masks are stored as 8-bit greyscale PNGs: background 0, car 255
        self.masks = (rng.random((n_items, size, size)) > 0.5).astype(np.uint8) * 255

    def __len__(self):
        return len(self.images)

    def __getitem__(self, idx):
        image = torch.from_numpy(self.images[idx]).permute(2, 0, 1)
        mask = torch.from_numpy(self.masks[idx]).long()
        return {"image": image, "mask": mask}


def pixel_nll(logits, mask):
    """Per-pixel negative log-likelihood.

    Args:
        logits: (N, C, H, W) raw scores for C classes.
        mask: (N, H, W) class ids in [0, C).

    Returns:
        Scalar mean loss.
    """
    logp = F.log_softmax(logits, dim=1)
    picked = logp.gather(1, mask.unsqueeze(1))  # (N, 1, H, W)
    return -picked.mean()


if __name__ == "__main__":
    torch.manual_seed(0)
    n_classes = 2
    net = torch.nn.Conv2d(3, n_classes, kernel_size=3, padding=1)
    loader = DataLoader(CarvanaLikeDataset(), batch_size=2)
    for batch in loader:
        loss = pixel_nll(net(batch["image"]), batch["mask"])
        print("loss", loss.item())
