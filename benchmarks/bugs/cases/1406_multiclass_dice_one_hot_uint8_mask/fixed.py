import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.nn.modules.loss import _Loss
from torch.utils.data import DataLoader, Dataset

MULTICLASS_MODE = "multiclass"


def soft_dice_score(output, target, smooth=0.0, eps=1e-7, dims=None):
    intersection = torch.sum(output * target, dim=dims)
    cardinality = torch.sum(output + target, dim=dims)
    return (2.0 * intersection + smooth) / (cardinality + smooth).clamp_min(eps)


class DiceLoss(_Loss):
    def __init__(self, mode, from_logits=True, smooth=0.0, eps=1e-7):
        super().__init__()
        assert mode == MULTICLASS_MODE
        self.mode = mode
        self.from_logits = from_logits
        self.smooth = smooth
        self.eps = eps

    def forward(self, y_pred, y_true):
        # y_pred: N, C, H, W logits; y_true: N, H, W class ids
        bs = y_true.size(0)
        num_classes = y_pred.size(1)
        dims = (0, 2)
        if self.from_logits:
            y_pred = y_pred.log_softmax(dim=1).exp()

        y_true = y_true.view(bs, -1)  # N, H, W -> N, H*W
        y_pred = y_pred.view(bs, num_classes, -1)  # N, C, H, W -> N, C, H*W
        y_true = F.one_hot(y_true.to(torch.long), num_classes)  # N, H*W -> N, H*W, C
        y_true = y_true.permute(0, 2, 1)  # N, C, H*W

        scores = soft_dice_score(y_pred, y_true.type_as(y_pred), self.smooth, self.eps, dims=dims)  # C
        loss = 1.0 - scores
        present = y_true.sum(dims) > 0  # classes that occur in the batch
        loss = loss * present.to(loss.dtype)
        return loss.mean()


class LabelPngDataset(Dataset):
    def __init__(self, images, masks):
        self.images = images  # list of H, W, 3 uint8 arrays
        self.masks = masks  # list of H, W uint8 arrays read from palette label pngs

    def __len__(self):
        return len(self.images)

    def __getitem__(self, i):
        image = torch.from_numpy(self.images[i]).permute(2, 0, 1).float() / 255.0  # 3, H, W
        mask = torch.from_numpy(self.masks[i])  # H, W
        return image, mask


def tiny_segmenter(num_classes):
    return nn.Sequential(nn.Conv2d(3, 16, 3, padding=1), nn.ReLU(), nn.Conv2d(16, num_classes, 1))


if __name__ == "__main__":
    rng = np.random.default_rng(0)
    num_classes = 4
    images = [rng.integers(0, 256, (32, 32, 3), dtype=np.uint8) for _ in range(6)]
    masks = [rng.integers(0, num_classes, (32, 32), dtype=np.uint8) for _ in range(6)]
    loader = DataLoader(LabelPngDataset(images, masks), batch_size=3)

    torch.manual_seed(0)
    model = tiny_segmenter(num_classes)
    criterion = DiceLoss(MULTICLASS_MODE)
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
    for image, mask in loader:
        loss = criterion(model(image), mask)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()

    # loop reference for one batch
    image, mask = next(iter(loader))
    with torch.no_grad():
        probs = model(image).softmax(dim=1)
        loss = criterion(model(image), mask)
    n, c, h, w = probs.shape
    per_class = []
    for k in range(c):
        inter, card, count = 0.0, 0.0, 0
        for b in range(n):
            for y in range(h):
                for x in range(w):
                    t = 1.0 if int(mask[b, y, x]) == k else 0.0
                    p = probs[b, k, y, x].item()
                    inter += p * t
                    card += p + t
                    count += int(t)
        per_class.append((1.0 - 2.0 * inter / max(card, 1e-7)) if count > 0 else 0.0)
    reference = sum(per_class) / c
    assert abs(loss.item() - reference) < 1e-4, (loss.item(), reference)
    print("ok")
