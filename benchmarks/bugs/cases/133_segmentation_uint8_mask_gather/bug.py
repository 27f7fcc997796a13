import numpy as np
import torch
import torch.nn as nn
from jaxtyping import Float, Int
from torch import Tensor
from torch.utils.data import DataLoader, Dataset


class MaskDataset(Dataset):
    """Image / grayscale label-mask pairs (as read from PNG files)."""

    def __init__(self, images, masks):
        self.images = images
        self.masks = masks

    def __len__(self):
        return len(self.images)

    def __getitem__(self, i):
        image = torch.from_numpy(self.images[i]).permute(2, 0, 1).float() / 255.0
        label = self.masks[i]
        return {"image": image, "label": torch.from_numpy(label)}


class FocalLoss(nn.Module):
    def __init__(self, gamma: float = 2.0):
        super().__init__()
        self.gamma = gamma

    def forward(
        self,
        logits: Float[Tensor, "batch classes height width"],
        label: Int[Tensor, "batch height width"],
    ) -> Float[Tensor, ""]:
        log_p = logits.log_softmax(dim=1)
        log_pt = log_p.gather(1, label.unsqueeze(1)).squeeze(1)
        pt = log_pt.exp()
        return (-(1.0 - pt) ** self.gamma * log_pt).mean()


if __name__ == "__main__":
    rng = np.random.default_rng(0)
    images = [rng.integers(0, 256, size=(8, 8, 3), dtype=np.uint8) for _ in range(4)]
    masks = [rng.integers(0, 4, size=(8, 8), dtype=np.uint8) for _ in range(4)]
    loader = DataLoader(MaskDataset(images, masks), batch_size=2)
    head = nn.Conv2d(3, 4, kernel_size=1)
    criterion = FocalLoss()
    for batch in loader:
        loss = criterion(head(batch["image"]), batch["label"])
        print("loss:", loss.item())
