from dataclasses import dataclass

import torch
import torch.nn as nn
import torch.nn.functional as F


@dataclass
class LossConfig:
    num_classes: int = 5
    ignore_index: int = 255
    gamma: float = 2.0


class FocalLoss(nn.Module):
    """Focal loss for dense prediction.

    Args:
        logits: (N, C, H, W) raw class scores.
        target: (N, H, W) integer labels in [0, C) or ``ignore_index``.

    Returns:
        Scalar loss averaged over the non-ignored pixels.
    """

    def __init__(self, cfg: LossConfig):
        super().__init__()
        self.gamma = cfg.gamma
        self.ignore_index = cfg.ignore_index

    def forward(self, logits, target):
        logp = F.log_softmax(logits, dim=1)
        valid = target != self.ignore_index
        safe_target = torch.where(valid, target, torch.zeros_like(target))
        logp_t = logp.gather(1, safe_target.unsqueeze(1)).squeeze(1)
        p_t = logp_t.exp()
        loss = -((1 - p_t) ** self.gamma) * logp_t
        return (loss * valid).sum() / valid.sum().clamp(min=1)


if __name__ == "__main__":
    torch.manual_seed(0)
    cfg = LossConfig()
    logits = torch.randn(2, cfg.num_classes, 4, 4)
    target = torch.randint(0, cfg.num_classes, (2, 4, 4))
    target[:, 0, :] = cfg.ignore_index
    out = FocalLoss(cfg)(logits, target)
    import math
    total, count = 0.0, 0
    for n in range(2):
        for h in range(4):
            for w in range(4):
                t = int(target[n, h, w])
                if t == cfg.ignore_index:
                    continue
                col = [float(logits[n, c, h, w]) for c in range(cfg.num_classes)]
                m = max(col)
                lse = m + math.log(sum(math.exp(v - m) for v in col))
                lp = col[t] - lse
                total += -((1 - math.exp(lp)) ** cfg.gamma) * lp
                count += 1
    assert abs(out.item() - total / count) < 1e-5
    print("ok")
