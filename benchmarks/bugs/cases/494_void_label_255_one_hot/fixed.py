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


def soft_dice_loss(logits, target, num_classes, void_label, eps=1.0):
    # logits: [B, C, H, W], target: [B, H, W] int64
    valid = (target != void_label).unsqueeze(1).float()  # [B, 1, H, W]
    probs = logits.softmax(dim=1) * valid  # [B, C, H, W]
    safe = target.masked_fill(target == void_label, 0)  # [B, H, W]
    onehot = F.one_hot(safe, num_classes).permute(0, 3, 1, 2).float() * valid  # [B, C, H, W]
    inter = (probs * onehot).sum(dim=(0, 2, 3))  # [C]
    denom = probs.sum(dim=(0, 2, 3)) + onehot.sum(dim=(0, 2, 3))  # [C]
    return 1.0 - ((2 * inter + eps) / (denom + eps)).mean()


if __name__ == "__main__":
    cfg = SegConfig()
    logits, target = make_batch(cfg)
    got = soft_dice_loss(logits, target, cfg.num_classes, cfg.void_label).item()
    p = logits.softmax(dim=1)
    B, C, H, W = logits.shape
    terms = []
    for c in range(C):
        inter = psum = tsum = 0.0
        for b in range(B):
            for y in range(H):
                for x in range(W):
                    t = int(target[b, y, x])
                    if t == cfg.void_label:
                        continue
                    pv = p[b, c, y, x].item()
                    psum += pv
                    if t == c:
                        inter += pv
                        tsum += 1.0
        terms.append((2 * inter + 1.0) / (psum + tsum + 1.0))
    ref = 1.0 - sum(terms) / C
    assert abs(got - ref) < 1e-5, (got, ref)
    print("ok")
