from dataclasses import dataclass

import torch
import torch.nn as nn
import torch.nn.functional as F


@dataclass
class SegConfig:
    num_classes: int = 4
    ignore_index: int = 255
    smooth: float = 1.0


class DiceLoss(nn.Module):
    def __init__(self, cfg: SegConfig):
        super().__init__()
        self.cfg = cfg

    def forward(self, logits, labels):
        """
        Args:
            logits (`torch.FloatTensor` of shape `(batch_size, num_classes, height, width)`):
                Raw per-pixel class scores.
            labels (`torch.LongTensor` of shape `(batch_size, height, width)`):
                Class ids in `[0, num_classes)`, or `ignore_index` for void pixels.

        Returns:
            `torch.FloatTensor` scalar: 1 - mean soft Dice over classes.
        """
        ignored = labels == self.cfg.ignore_index
        valid = (~ignored).unsqueeze(1).float()
        one_hot = F.one_hot(labels.masked_fill(ignored, 0), self.cfg.num_classes).permute(0, 3, 1, 2).float()
        probs = logits.softmax(dim=1) * valid
        one_hot = one_hot * valid
        inter = (probs * one_hot).sum(dim=(0, 2, 3))
        total = probs.sum(dim=(0, 2, 3)) + one_hot.sum(dim=(0, 2, 3))
        dice = (2 * inter + self.cfg.smooth) / (total + self.cfg.smooth)
        return 1 - dice.mean()


def training_step(model_out, batch, cfg):
    return DiceLoss(cfg)(model_out, batch["mask"])


if __name__ == "__main__":
    torch.manual_seed(0)
    cfg = SegConfig()
    logits = torch.randn(2, cfg.num_classes, 8, 8)
    mask = torch.randint(0, cfg.num_classes, (2, 8, 8))
    mask[:, :2] = cfg.ignore_index
    loss = training_step(logits, {"mask": mask}, cfg)
    probs = logits.softmax(dim=1)
    inter = [0.0] * cfg.num_classes
    total = [0.0] * cfg.num_classes
    for n in range(2):
        for y in range(8):
            for x in range(8):
                lab = int(mask[n, y, x])
                if lab == cfg.ignore_index:
                    continue
                for c in range(cfg.num_classes):
                    p = float(probs[n, c, y, x])
                    t = 1.0 if c == lab else 0.0
                    inter[c] += p * t
                    total[c] += p + t
    dice = [(2 * i + cfg.smooth) / (t + cfg.smooth) for i, t in zip(inter, total)]
    ref = 1 - sum(dice) / len(dice)
    assert abs(loss.item() - ref) < 1e-5, (loss.item(), ref)
    print("ok")
