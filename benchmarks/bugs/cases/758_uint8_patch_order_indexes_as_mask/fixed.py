import numpy as np
import torch
import torch.nn as nn
from jaxtyping import Float, Integer


class CachedShuffleDataset(torch.utils.data.Dataset):
    """Patches plus a shuffle order precomputed once and cached compactly on disk."""

    def __init__(self, n_items=2, n_patches=8, dim=4, seed=0):
        rng = np.random.default_rng(seed)
        self.patches = rng.standard_normal((n_items, n_patches, dim)).astype(np.float32)
        self.orders = np.stack([rng.permutation(n_patches) for _ in range(n_items)]).astype(np.uint8)

    def __len__(self):
        return len(self.patches)

    def __getitem__(self, i):
        return torch.from_numpy(self.patches[i]), torch.from_numpy(self.orders[i])


class VisiblePatchSelector(nn.Module):
    def __init__(self, keep: int):
        super().__init__()
        self.keep = keep

    def forward(
        self,
        patches: Float[torch.Tensor, "n d"],
        order: Integer[torch.Tensor, "n"],
    ) -> Float[torch.Tensor, "keep d"]:
        shuffled = patches[order.long()]
        return shuffled[: self.keep]


if __name__ == "__main__":
    ds = CachedShuffleDataset()
    sel = VisiblePatchSelector(keep=3)
    patches, order = ds[0]
    visible = sel(patches, order)
    for i in range(len(ds)):
        patches, order = ds[i]
        visible = sel(patches, order)
        ref = torch.stack([patches[int(order[j])] for j in range(sel.keep)])
        assert torch.equal(visible, ref)
    print("ok")
