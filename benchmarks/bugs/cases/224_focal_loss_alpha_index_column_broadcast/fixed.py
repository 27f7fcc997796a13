import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F


class FocalLoss(nn.Module):
    def __init__(self, num_class, alpha=None, gamma=2, smooth=None, size_average=True):
        super().__init__()
        self.num_class = num_class
        self.gamma = gamma
        self.smooth = smooth
        self.size_average = size_average
        if alpha is None:
            self.alpha = torch.ones(self.num_class, 1)
        elif isinstance(alpha, (list, np.ndarray)):
            self.alpha = torch.FloatTensor(alpha).view(self.num_class, 1)
            self.alpha = self.alpha / self.alpha.sum()
        else:
            raise TypeError("Not support alpha type")

    def forward(self, input, target):
        logit = F.softmax(input, dim=1)
        if logit.dim() > 2:
            logit = logit.view(logit.size(0), logit.size(1), -1)
            logit = logit.permute(0, 2, 1).contiguous()
            logit = logit.view(-1, logit.size(-1))
        target = target.view(-1, 1)

        epsilon = 1e-10
        alpha = self.alpha.to(logit.device)
        idx = target.cpu().long()
        one_hot_key = torch.zeros(target.size(0), self.num_class)
        one_hot_key = one_hot_key.scatter_(1, idx, 1)
        if self.smooth:
            one_hot_key = torch.clamp(one_hot_key, self.smooth / (self.num_class - 1), 1.0 - self.smooth)
        pt = (one_hot_key * logit).sum(1) + epsilon
        logpt = pt.log()

        alpha_class = alpha[idx].view(-1)  # alpha[idx] is (N, 1, 1); pt and logpt are (N,)
        loss = -1 * alpha_class * torch.pow((1 - pt), self.gamma) * logpt
        if self.size_average:
            return loss.mean()
        return loss.sum()


class SegHead(nn.Module):
    def __init__(self, in_channels, num_class):
        super().__init__()
        self.conv = nn.Conv3d(in_channels, num_class, kernel_size=1)

    def forward(self, x):
        return self.conv(x)


if __name__ == "__main__":
    import math

    torch.manual_seed(0)
    head = SegHead(4, 3)
    criterion = FocalLoss(num_class=3, alpha=[0.2, 0.3, 0.5])
    volume = torch.randn(1, 4, 2, 3, 3)
    labels = torch.randint(0, 3, (1, 2, 3, 3))
    with torch.no_grad():
        logits = head(volume)
        loss = criterion(logits, labels)
    total, count = 0.0, 0
    for z in range(2):
        for y in range(3):
            for x in range(3):
                s = [logits[0, c, z, y, x].item() for c in range(3)]
                label = labels[0, z, y, x].item()
                p = math.exp(s[label] - max(s)) / sum(math.exp(v - max(s)) for v in s) + 1e-10
                total += -[0.2, 0.3, 0.5][label] * (1 - p) ** 2 * math.log(p)
                count += 1
    assert abs(loss.item() - total / count) < 1e-5
    print("ok")
