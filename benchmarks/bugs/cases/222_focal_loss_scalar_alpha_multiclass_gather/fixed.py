import torch
import torch.nn as nn
import torch.nn.functional as F


class FocalLoss(nn.Module):
    def __init__(self, gamma=0, alpha=None, size_average=True):
        super().__init__()
        self.gamma = gamma
        self.alpha = alpha
        if isinstance(alpha, (float, int)):
            self.alpha = torch.Tensor([alpha, 1 - alpha])
        if isinstance(alpha, list):
            self.alpha = torch.Tensor(alpha)
        self.size_average = size_average

    def forward(self, input, target):
        if input.dim() > 2:
            input = input.view(input.size(0), input.size(1), -1)
            input = input.transpose(1, 2)
            input = input.contiguous().view(-1, input.size(2))
        target = target.view(-1, 1)

        logpt = F.log_softmax(input, dim=1)
        logpt = logpt.gather(1, target)
        logpt = logpt.view(-1)
        pt = logpt.exp()

        if self.alpha is not None:
            if self.alpha.type() != input.type():
                self.alpha = self.alpha.type_as(input)
            if self.alpha.numel() == 2:
                # a scalar alpha weighs background (class 0) against all foreground classes
                select = (target != 0).long()
                at = self.alpha.gather(0, select.view(-1))
            else:
                at = self.alpha.gather(0, target.view(-1))
            logpt = logpt * at

        loss = -1 * (1 - pt) ** self.gamma * logpt
        if self.size_average:
            return loss.mean()
        return loss.sum()


def build_criterion(cfg):
    return FocalLoss(gamma=cfg["gamma"], alpha=cfg["alpha"])


def build_model(cfg):
    return nn.Sequential(nn.Linear(cfg["in_features"], 32), nn.ReLU(), nn.Linear(32, cfg["num_classes"]))


def sample_batch(cfg, generator):
    x = torch.randn(cfg["batch_size"], cfg["in_features"], generator=generator)
    y = torch.randint(0, cfg["num_classes"], (cfg["batch_size"],), generator=generator)
    return x, y


if __name__ == "__main__":
    import math

    torch.manual_seed(0)
    cfg = {"in_features": 10, "num_classes": 5, "batch_size": 16, "gamma": 2.0, "alpha": 0.25}
    model = build_model(cfg)
    criterion = build_criterion(cfg)
    x, y = sample_batch(cfg, torch.Generator().manual_seed(0))
    logits = model(x)
    loss = criterion(logits, y)
    loss.backward()
    total = 0.0
    for i in range(cfg["batch_size"]):
        s = logits[i].tolist()
        m = max(s)
        logp = s[y[i].item()] - m - math.log(sum(math.exp(v - m) for v in s))
        a = 0.25 if y[i].item() == 0 else 0.75
        total += -((1 - math.exp(logp)) ** 2) * logp * a
    assert abs(loss.item() - total / cfg["batch_size"]) < 1e-5
    per_class = FocalLoss(gamma=2.0, alpha=[0.1, 0.2, 0.3, 0.2, 0.2])(logits.detach(), y)
    assert per_class.item() > 0
    print("ok")
