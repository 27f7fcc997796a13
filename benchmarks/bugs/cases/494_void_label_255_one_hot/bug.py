import torch
import torch.nn.functional as F
from dataclasses import dataclass


@dataclass
class SegConfig:
    num_classes: int = 4
    void_label: int = 255
    height: int = 8
    width: int = 8


def make_batch(cfg, batch_size=2):
    g = torch.Generator().manual_seed(0)
    logits = torch.randn(batch_size, cfg.num_classes, cfg.height, cfg.width, generator=g)  # [B, C, H, W]
    target = torch.randint(0, cfg.num_classes, (batch_size, cfg.height, cfg.width), generator=g)  # [B, H, W]
    target[:, 0, :] = cfg.void_label  # annotation border
    return logits, target


def soft_dice_loss(logits, target, num_classes, eps=1.0):
    # logits: [B, C, H, W], target: [B, H, W] int64
    probs = logits.softmax(dim=1)  # [B, C, H, W]
    onehot = F.one_hot(target, num_classes).permute(0, 3, 1, 2).float()  # [B, C, H, W]
    inter = (probs * onehot).sum(dim=(0, 2, 3))  # [C]
    denom = probs.sum(dim=(0, 2, 3)) + onehot.sum(dim=(0, 2, 3))  # [C]
    return 1.0 - ((2 * inter + eps) / (denom + eps)).mean()


if __name__ == "__main__":
    cfg = SegConfig()
    logits, target = make_batch(cfg)
    print("dice loss:", soft_dice_loss(logits, target, cfg.num_classes).item())
