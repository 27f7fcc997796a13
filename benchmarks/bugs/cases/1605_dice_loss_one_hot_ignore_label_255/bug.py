import torch
import torch.nn as nn
import torch.nn.functional as F


def one_hot(labels, num_classes, eps=1e-6):
    # labels: (B, H, W) int64 -> (B, C, H, W) float
    b, h, w = labels.shape
    out = torch.zeros(b, num_classes, h, w, dtype=torch.float32, device=labels.device)
    return out.scatter_(1, labels.unsqueeze(1), 1.0) + eps


class DiceLoss(nn.Module):
    def __init__(self, eps=1e-8):
        super().__init__()
        self.eps = eps

    def forward(self, logits, target):
        # logits: (B, C, H, W), target: (B, H, W) with class ids
        probs = F.softmax(logits, dim=1)
        target_1h = one_hot(target, num_classes=logits.shape[1])  # (B, C, H, W)
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
    print("dice loss:", loss.item())
