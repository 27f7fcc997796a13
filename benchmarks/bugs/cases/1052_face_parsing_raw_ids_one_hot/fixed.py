import torch
from torch.utils.data import Dataset, DataLoader


class OneHotMask:
    def __init__(self, n_classes):
        self.n_classes = n_classes

    def __call__(self, mask):
        # mask: (H, W) integer class map in [0, C) -> (C, H, W) float one-hot
        out = torch.zeros(self.n_classes, *mask.shape)
        out.scatter_(0, mask.unsqueeze(0), 1.0)
        return out


class FaceParsingMasks(Dataset):
    """Segmentation maps; stored annotation ids are remapped to train ids first."""

    def __init__(self, raw_masks, n_classes=19):
        self.raw_masks = raw_masks
        self.to_one_hot = OneHotMask(n_classes)
        self.id_to_train = torch.zeros(256, dtype=torch.long)
        self.id_to_train[:n_classes - 1] = torch.arange(n_classes - 1)
        self.id_to_train[32] = n_classes - 1            # "hat" -> last class

    def __len__(self):
        return len(self.raw_masks)

    def __getitem__(self, i):
        mask = self.id_to_train[self.raw_masks[i].long()]   # (H, W) in [0, 19)
        return self.to_one_hot(mask)                        # (19, H, W)


def load_annotations(n=3, h=8, w=8):
    g = torch.Generator().manual_seed(0)
    # annotation ids from the labelling tool: 0..18 for parts, 32 for "hat"
    ids = torch.tensor([0, 1, 2, 4, 5, 10, 13, 17, 32])
    return [ids[torch.randint(len(ids), (h, w), generator=g)] for _ in range(n)]


if __name__ == "__main__":
    raw = load_annotations()
    ds = FaceParsingMasks(raw)
    batch = next(iter(DataLoader(ds, batch_size=3)))
    ref = torch.zeros(3, 19, 8, 8)
    for n in range(3):
        for y in range(8):
            for x in range(8):
                rid = int(raw[n][y, x])
                ref[n, 18 if rid == 32 else rid, y, x] = 1.0
    assert torch.equal(batch, ref)
    print("ok")
