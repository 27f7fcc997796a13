import torch
import torch.nn as nn
import torch.nn.functional as F


def labels_to_one_hot(labels, num_classes, ignore_index=None):
    # an ignore label is encoded as one extra class, whose channel is dropped again
    depth = num_classes if ignore_index is None else num_classes + 1
    onehot = F.one_hot(labels, depth).movedim(-1, 1)
    if ignore_index is not None:
        keep = [c for c in range(depth) if c != ignore_index]
        onehot = onehot[:, keep]
    return onehot


class DiceLoss(nn.Module):
    def __init__(self, smooth=1.0, ignore_index=None):
        super().__init__()
        self.smooth = smooth
        self.ignore_index = ignore_index

    def forward(self, logits, target):
        probs = logits.softmax(dim=1)
        onehot = labels_to_one_hot(target, logits.size(1), self.ignore_index).type_as(probs)
        inter = (probs * onehot).sum(dim=(0, 2, 3))
        denom = probs.sum(dim=(0, 2, 3)) + onehot.sum(dim=(0, 2, 3))
        return (1 - (2 * inter + self.smooth) / (denom + self.smooth)).mean()


class DiceCELoss(nn.Module):
    def __init__(self, num_classes, ignore_index=-100, weights=(1.0, 1.0)):
        super().__init__()
        self.num_classes = num_classes
        self.weights = weights
        self.ce = nn.CrossEntropyLoss(ignore_index=ignore_index)
        self.dice = DiceLoss(ignore_index=None if ignore_index < 0 else ignore_index)

    def forward(self, logits, target):
        return self.weights[0] * self.ce(logits, target) + self.weights[1] * self.dice(logits, target)


if __name__ == "__main__":
    torch.manual_seed(0)
    criterion = DiceCELoss(num_classes=21)
    logits = torch.randn(2, 21, 16, 16)
    target = torch.randint(0, 21, (2, 16, 16))
    loss = criterion(logits, target)
    probs = logits.softmax(dim=1)
    dice_terms = []
    for c in range(21):
        p, t = probs[:, c], (target == c).float()
        dice_terms.append(1 - (2 * (p * t).sum() + 1.0) / (p.sum() + t.sum() + 1.0))
    ce = sum(-probs[b, target[b, i, j], i, j].log() for b in range(2) for i in range(16) for j in range(16)) / 512
    ref = ce + torch.stack(dice_terms).mean()
    assert torch.allclose(loss, ref, atol=1e-5)
    print("ok")
