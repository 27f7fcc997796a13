import torch
import torch.nn as nn
import torch.nn.functional as F


class DiceLoss(nn.Module):
    def __init__(self, eps=1e-5):
        super().__init__()
        self.eps = eps

    def forward(self, output, target):
        # output: [B, C, H, W] logits
        # target: [B, 1, H, W] class ids, channel dim kept by the data loader
        probs = output.softmax(dim=1)  # [B, C, H, W]
        encoded_target = torch.zeros_like(probs)  # [B, C, H, W]
        encoded_target.scatter_(1, target.unsqueeze(1), 1)
        inter = (probs * encoded_target).sum(dim=(0, 2, 3))  # [C]
        denom = probs.sum(dim=(0, 2, 3)) + encoded_target.sum(dim=(0, 2, 3))  # [C]
        return 1 - (2 * inter / (denom + self.eps)).mean()


class CombinedLoss(nn.Module):
    def __init__(self, dice_weight=1.0):
        super().__init__()
        self.dice = DiceLoss()
        self.dice_weight = dice_weight

    def forward(self, output, target, pixel_weights):
        # pixel_weights: [B, H, W], boundary pixels weighted up
        ce = F.cross_entropy(output, target.squeeze(1), reduction="none")  # [B, H, W]
        return (ce * pixel_weights).mean() + self.dice_weight * self.dice(output, target)


if __name__ == "__main__":
    torch.manual_seed(0)
    layers = 8
    output = torch.randn(2, layers, 64, 32)
    target = torch.randint(0, layers, (2, 1, 64, 32))
    weights = 1 + torch.rand(2, 64, 32)
    loss = CombinedLoss()(output, target, weights)
    probs = output.softmax(1)
    onehot = F.one_hot(target.squeeze(1), layers).permute(0, 3, 1, 2).float()
    dice = 1 - (2 * (probs * onehot).sum((0, 2, 3)) / (probs.sum((0, 2, 3)) + onehot.sum((0, 2, 3)) + 1e-5)).mean()
    ce = (F.cross_entropy(output, target.squeeze(1), reduction="none") * weights).mean()
    print("loss:", loss.item(), "reference:", (ce + dice).item())
