from dataclasses import dataclass

import torch
from torch.utils.data import DataLoader, Dataset


@dataclass
class TrainConfig:
    num_classes: int = 1000
    mix_lam: float = 0.7
    smoothing: float = 0.1
    batch_size: int = 6


def one_hot(target, num_classes, on_value=1.0, off_value=0.0):
    target = target.long().view(-1, 1)
    return torch.full((target.size(0), num_classes), off_value).scatter_(1, target, on_value)


def mixup_target(target, num_classes, lam, smoothing):
    off_value = smoothing / num_classes
    on_value = 1.0 - smoothing + off_value
    y1 = one_hot(target, num_classes, on_value, off_value)
    y2 = one_hot(target.flip(0), num_classes, on_value, off_value)
    return y1 * lam + y2 * (1.0 - lam)


class LeafDataset(Dataset):
    classes = ["apple", "birch", "cedar", "elm", "fir", "maple", "oak", "pine", "willow"]

    def __init__(self, n):
        g = torch.Generator().manual_seed(0)
        self.images = torch.randn(n, 3, 8, 8, generator=g)
        self.labels = [i % len(self.classes) for i in range(n)]

    def __len__(self):
        return len(self.labels)

    def __getitem__(self, i):
        return self.images[i], self.labels[i]


class MixupCollate:
    def __init__(self, cfg):
        self.num_classes, self.lam, self.smoothing = cfg.num_classes, cfg.mix_lam, cfg.smoothing

    def __call__(self, batch):
        images = torch.stack([b[0] for b in batch])
        labels = torch.tensor([b[1] for b in batch])
        images = images * self.lam + images.flip(0) * (1.0 - self.lam)
        return images, mixup_target(labels, self.num_classes, self.lam, self.smoothing)


if __name__ == "__main__":
    dataset = LeafDataset(18)
    cfg = TrainConfig(num_classes=8)
    loader = DataLoader(dataset, batch_size=cfg.batch_size, collate_fn=MixupCollate(cfg))
    for images, targets in loader:
        print(images.shape, targets.shape, targets.sum(-1))
