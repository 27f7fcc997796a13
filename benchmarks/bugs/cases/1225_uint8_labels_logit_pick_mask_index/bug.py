import numpy as np
import torch
from jaxtyping import Float, Int
from torch.utils.data import DataLoader, Dataset


class ReplayBufferDataset(Dataset):
    """Stored examples of past tasks; labels are kept compact on disk."""

    def __init__(self, n=64, num_classes=10, dim=16, seed=0):
        rng = np.random.default_rng(seed)
        self.x = rng.normal(size=(n, dim)).astype(np.float32)
        self.labels = rng.integers(0, num_classes, n).astype(np.uint8)
        self.old_logits = rng.normal(size=(n, num_classes)).astype(np.float32)

    def __len__(self):
        return len(self.labels)

    def __getitem__(self, i):
        return self.x[i], self.labels[i], self.old_logits[i]


def update_logits(
    old: Float[torch.Tensor, "batch classes"],
    new: Float[torch.Tensor, "batch classes"],
    gt: Int[torch.Tensor, " batch"],
    gamma: float = 0.85,
) -> Float[torch.Tensor, "batch classes"]:
    """Rescale the stored logits so the ground-truth class stays the top one."""
    rows = torch.arange(len(gt))
    gt_values = old[rows, gt]
    max_values = old.max(dim=1).values
    coeff = (gamma * max_values / gt_values.clamp(min=1e-6)).clamp(max=1.0)
    return old * coeff.unsqueeze(1) + new * (1 - coeff.unsqueeze(1))


if __name__ == "__main__":
    loader = DataLoader(ReplayBufferDataset(), batch_size=32)
    x, labels, old_logits = next(iter(loader))
    new_logits = torch.randn_like(old_logits)
    print(update_logits(old_logits, new_logits, labels).shape)
