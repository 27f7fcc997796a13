import torch
import torch.nn as nn
import torch.nn.functional as F


class FocalLoss(nn.Module):
    def __init__(self, gamma=2.0, alpha=None, reduction="mean"):
        super().__init__()
        self.gamma = gamma
        self.alpha = None if alpha is None else torch.as_tensor(alpha, dtype=torch.float32)
        self.reduction = reduction

    def forward(self, input, target):
        i, t = input, target
        if t.dim() < i.dim():
            t = t.unsqueeze(1)
        i = i.reshape(i.size(0), i.size(1), -1)
        t = t.reshape(t.size(0), t.size(1), -1).long()

        logpt = F.log_softmax(i, dim=1).gather(1, t)
        logpt = logpt.squeeze(1)
        pt = logpt.exp()

        if self.alpha is not None:
            # one weight per voxel: look the (C,) class weights up with the flattened labels
            at = self.alpha.to(i).gather(0, t.reshape(-1)).view_as(logpt)
            logpt = logpt * at

        loss = -((1 - pt) ** self.gamma) * logpt
        if self.reduction == "mean":
            return loss.mean()
        return loss.sum()


class TinySegmenter(nn.Module):
    def __init__(self):
        super().__init__()
        self.features = nn.Sequential(nn.Conv2d(1, 6, 3, padding=1), nn.ReLU())
        self.classifier = nn.Conv2d(6, 4, 1)

    def forward(self, x):
        return self.classifier(self.features(x))


if __name__ == "__main__":
    import math

    torch.manual_seed(0)
    model = TinySegmenter()
    alpha = [0.1, 0.3, 0.3, 0.3]
    criterion = FocalLoss(gamma=2.0, alpha=alpha)
    scans = torch.randn(2, 1, 5, 5)
    masks = torch.randint(0, 4, (2, 5, 5))
    with torch.no_grad():
        logits = model(scans)
        loss = criterion(logits, masks)
    total = 0.0
    for b in range(2):
        for y in range(5):
            for x in range(5):
                s = [logits[b, c, y, x].item() for c in range(4)]
                label = masks[b, y, x].item()
                m = max(s)
                logp = s[label] - m - math.log(sum(math.exp(v - m) for v in s))
                total += -((1 - math.exp(logp)) ** 2) * logp * alpha[label]
    assert abs(loss.item() - total / 50) < 1e-5
    print("ok")
