import torch
import torch.nn.functional as F
from torch.utils.data import Dataset, DataLoader

IGNORE_INDEX = 255


class LabeledCityCrops(Dataset):
    """Tiny stand-in for a labelled segmentation split (masks use 255 for 'void')."""

    def __init__(self, n_items=4, size=8, n_classes=19, seed=0):
        g = torch.Generator().manual_seed(seed)
        self.images = torch.randn(n_items, 3, size, size, generator=g)
        masks = torch.randint(0, n_classes, (n_items, size, size), generator=g)
        masks[:, :2, :] = IGNORE_INDEX  # top rows are unlabelled
        self.masks = masks

    def __len__(self):
        return self.images.shape[0]

    def __getitem__(self, i):
        return self.images[i], self.masks[i]


def label_onehot(inputs, num_segments):
    # inputs: (B, H, W) int64 class ids; returns (B, num_segments, H, W)
    batch_size, im_h, im_w = inputs.shape
    # remap void pixels (255) into 0 so the one-hot can be built; they are masked out later
    inputs = inputs.masked_fill(inputs == IGNORE_INDEX, 0)
    outputs = torch.zeros([batch_size, num_segments, im_h, im_w])
    return outputs.scatter_(1, inputs.unsqueeze(1), 1.0)


def supervised_step(mask_x, preds, num_classes):
    # preds: (B, C, h, w) logits at a lower resolution than the mask
    mask_l = F.interpolate(label_onehot(mask_x, num_classes), size=preds.shape[2:], mode="nearest")
    valid = (F.interpolate(mask_x.unsqueeze(1).float(), size=preds.shape[2:], mode="nearest") != IGNORE_INDEX).float()
    prob = preds.softmax(dim=1)
    return (((prob - mask_l) ** 2) * valid).sum() / valid.sum().clamp(min=1)


if __name__ == "__main__":
    ds = LabeledCityCrops()
    loader = DataLoader(ds, batch_size=2)
    img, mask = next(iter(loader))
    preds = torch.randn(img.shape[0], 19, 4, 4)
    onehot = label_onehot(mask, 19)
    ref = torch.zeros_like(onehot)
    for b in range(mask.shape[0]):
        for y in range(mask.shape[1]):
            for x in range(mask.shape[2]):
                c = int(mask[b, y, x])
                if c != IGNORE_INDEX:
                    ref[b, c, y, x] = 1.0
    keep = (mask != IGNORE_INDEX).unsqueeze(1).expand_as(onehot)
    assert torch.equal(onehot[keep], ref[keep])
    loss = supervised_step(mask, preds, num_classes=19)
    assert torch.isfinite(loss)
    print("ok")
