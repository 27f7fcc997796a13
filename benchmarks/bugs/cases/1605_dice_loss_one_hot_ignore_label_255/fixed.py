import torch
import torch.nn as nn
import torch.nn.functional as F


def one_hot(labels, num_classes, eps=1e-6):
    # labels: (B, H, W) int64 -> (B, C, H, W) float
    b, h, w = labels.shape
    out = torch.zeros(b, num_classes, h, w, dtype=torch.float32, device=labels.device)
    return out.scatter_(1, labels.unsqueeze(1), 1.0) + eps


class DiceLoss(nn.Module):
    def __init__(self, ignore_index=255, eps=1e-8):
        super().__init__()
        self.ignore_index = ignore_index
        self.eps = eps

    def forward(self, logits, target):
        # logits: (B, C, H, W), target: (B, H, W) with class ids
        valid = (target != self.ignore_index).unsqueeze(1)  # (B, 1, H, W)
        probs = F.softmax(logits, dim=1) * valid
        safe = target.masked_fill(~valid.squeeze(1), 0)  # (B, H, W)
        target_1h = one_hot(safe, num_classes=logits.shape[1]) * valid  # (B, C, H, W)
        inter = (probs * target_1h).sum(dim=(1, 2, 3))  # (B,)
        card = (probs + target_1h).sum(dim=(1, 2, 3))  # (B,)
        return (1.0 - 2.0 * inter / (card + self.eps)).mean()


def voc_batch(generator, num_classes=21, size=16):
    # VOC masks: 0..20 for classes, 255 on object borders
    target = torch.randint(0, num_classes, (2, size, size), generator=generator)
    target[:, ::5, :] = 255
    logits = torch.randn(2, num_classes, size, size, generator=generator)
    return logits, target


if __name__ == "__main__":
    g = torch.Generator().manual_seed(0)
    logits, target = voc_batch(g)
    loss = DiceLoss()(logits, target)
    probs = F.softmax(logits, dim=1)
    b, c, h, w = logits.shape
    per_image = []
    for n in range(b):
        inter, card = 0.0, 0.0
        for y in range(h):
            for x in range(w):
                t = target[n, y, x].item()
                if t == 255:
                    continue
                for k in range(c):
                    p = probs[n, k, y, x].item()
                    oh = (1.0 if k == t else 0.0) + 1e-6
                    inter += p * oh
                    card += p + oh
        per_image.append(1.0 - 2.0 * inter / (card + 1e-8))
    ref = sum(per_image) / b
    assert abs(loss.item() - ref) < 1e-5, (loss.item(), ref)
    print("ok")
