import torch
import torch.nn as nn


class AdaptiveClassWeightLoss(nn.Module):
    """Adaptive class-weighted loss for aerial segmentation (pixel-wise)."""

    def __init__(self, ignore_index=255, eps=1e-5):
        super().__init__()
        self.ignore_index = ignore_index
        self.eps = eps

    def encode_one_hot_label(self, pred, target):
        # pred: (B, C, H, W) logits, target: (B, H, W) labels read from the mask PNG
        one_hot_label = pred.detach() * 0  # (B, C, H, W)
        mask = target == self.ignore_index  # (B, H, W)
        target = target.clone()
        target[mask] = 0
        one_hot_label.scatter_(1, target.unsqueeze(1), 1)  # (B, 1, H, W) -> one-hot on C
        mask = mask.unsqueeze(1).expand_as(one_hot_label)  # (B, C, H, W)
        one_hot_label[mask] = 0
        return one_hot_label, mask

    def forward(self, pred, target):
        one_hot, mask = self.encode_one_hot_label(pred, target)
        prob = torch.softmax(pred, dim=1)  # (B, C, H, W)
        freq = one_hot.sum(dim=(0, 2, 3)) + 1.0  # (C,)
        weight = (freq.sum() / freq).view(1, -1, 1, 1)  # (1, C, 1, 1)
        loss = -(weight * one_hot * torch.log(prob + self.eps))
        return loss[~mask].sum() / (~mask).float().sum().clamp(min=1)


def load_batch(batch_size=2, num_classes=5, size=8):
    images_logits = torch.randn(batch_size, num_classes, size, size)  # (B, C, H, W)
    # masks are decoded from PNG files with ToTensor-like transforms: float values
    masks = torch.randint(0, num_classes, (batch_size, size, size)).float()  # (B, H, W)
    masks[0, 0, :3] = 255.0
    return images_logits, masks


if __name__ == "__main__":
    torch.manual_seed(0)
    criterion = AdaptiveClassWeightLoss()
    logits, labels = load_batch()
    print("loss:", criterion(logits, labels).item())
