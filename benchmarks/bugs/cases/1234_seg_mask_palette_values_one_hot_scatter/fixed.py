import torch
import torch.nn as nn
import torch.nn.functional as F

CONFIG = {"num_classes": 21, "image_size": 8, "palette": [0, 147, 151, 220], "smooth": 1.0}


class MaskFolderDataset(torch.utils.data.Dataset):
    def __init__(self, cfg, length=4, seed=0):
        self.cfg = cfg
        self.length = length
        self.gen = torch.Generator().manual_seed(seed)

    def __len__(self):
        return self.length

    def _read_mask(self):
        # stand-in for PIL.Image.open(path) on a palette PNG: pixel values are palette codes
        palette = torch.tensor(self.cfg["palette"], dtype=torch.uint8)
        size = self.cfg["image_size"]
        pick = torch.randint(0, len(palette), (size, size), generator=self.gen)
        return palette[pick]

    def __getitem__(self, idx):
        size = self.cfg["image_size"]
        image = torch.rand(3, size, size, generator=self.gen)
        lut = torch.zeros(256, dtype=torch.long)
        lut[torch.tensor(self.cfg["palette"])] = torch.arange(len(self.cfg["palette"]))
        mask = lut[self._read_mask().long()]
        return image, mask


class DiceLoss(nn.Module):
    def __init__(self, num_classes, smooth):
        super().__init__()
        self.num_classes = num_classes
        self.smooth = smooth

    def forward(self, logits, target):
        probs = logits.softmax(dim=1)
        one_hot = torch.zeros_like(probs).scatter_(1, target.unsqueeze(1), 1.0)
        inter = (probs * one_hot).sum(dim=(0, 2, 3))
        union = probs.sum(dim=(0, 2, 3)) + one_hot.sum(dim=(0, 2, 3))
        dice = (2 * inter + self.smooth) / (union + self.smooth)
        return 1 - dice.mean()


def train_step(cfg):
    torch.manual_seed(0)
    loader = torch.utils.data.DataLoader(MaskFolderDataset(cfg), batch_size=2)
    head = nn.Conv2d(3, cfg["num_classes"], kernel_size=1)
    criterion = DiceLoss(cfg["num_classes"], cfg["smooth"])
    image, mask = next(iter(loader))
    loss = criterion(head(image), mask)
    loss.backward()
    return loss.item()


if __name__ == "__main__":
    train_step(CONFIG)
    ds = MaskFolderDataset(CONFIG)
    image, mask = ds[0]
    assert int(mask.max()) < len(CONFIG["palette"])
    torch.manual_seed(3)
    C, S = CONFIG["num_classes"], CONFIG["image_size"]
    logits = torch.randn(1, C, S, S)
    loss = DiceLoss(C, CONFIG["smooth"])(logits, mask.unsqueeze(0)).item()
    probs = logits.softmax(dim=1)
    dices = []
    for c in range(C):
        inter = psum = tsum = 0.0
        for y in range(S):
            for x in range(S):
                p = probs[0, c, y, x].item()
                t = 1.0 if mask[y, x].item() == c else 0.0
                inter += p * t
                psum += p
                tsum += t
        dices.append((2 * inter + CONFIG["smooth"]) / (psum + tsum + CONFIG["smooth"]))
    assert abs(loss - (1 - sum(dices) / C)) < 1e-5
    print("ok")
