import torch
from torch.utils.data import Dataset, DataLoader


class OneHotMask:
    def __init__(self, n_classes):
        self.n_classes = n_classes

    def __call__(self, mask):
        # mask: (H, W) integer class map -> (C, H, W) float one-hot
        out = torch.zeros(self.n_classes, *mask.shape)
        out.scatter_(0, mask.unsqueeze(0), 1.0)
        return out


class FaceParsingMasks(Dataset):
    """Segmentation maps read from the annotation folder (ids as stored on disk)."""

    def __init__(self, raw_masks, n_classes=19):
        self.raw_masks = raw_masks
        self.to_one_hot = OneHotMask(n_classes)

    def __len__(self):
        return len(self.raw_masks)

    def __getitem__(self, i):
        mask = self.raw_masks[i].long()          # (H, W)
        return self.to_one_hot(mask)             # (19, H, W)


def load_annotations(n=3, h=8, w=8):
    g = torch.Generator().manual_seed(0)
    # annotation ids from the labelling tool: 0..18 for parts, 32 for "hat"
    ids = torch.tensor([0, 1, 2, 4, 5, 10, 13, 17, 32])
    return [ids[torch.randint(len(ids), (h, w), generator=g)] for _ in range(n)]


if __name__ == "__main__":
    ds = FaceParsingMasks(load_annotations())
    batch = next(iter(DataLoader(ds, batch_size=3)))
    print("one-hot batch:", tuple(batch.shape), "pixels per class:", batch.sum((0, 2, 3)).tolist())
