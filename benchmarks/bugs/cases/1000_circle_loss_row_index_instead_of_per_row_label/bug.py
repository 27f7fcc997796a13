import torch
import torch.nn as nn
import torch.nn.functional as F


class CircleClassifierLoss(nn.Module):
    def __init__(self, margin, gamma):
        super().__init__()
        self.m = margin
        self.gamma = gamma

    def forward(self, cos_sim, label):
        alpha = torch.clamp_min(cos_sim + self.m, min=0).detach()
        alpha[label] = torch.clamp_min(-cos_sim[label] + 1 + self.m, min=0).detach()
        delta = torch.ones_like(cos_sim) * self.m
        delta[label] = 1 - self.m
        return F.cross_entropy(self.gamma * alpha * (cos_sim - delta), label)


def make_batch(cfg, gen):
    feats = F.normalize(torch.randn(cfg["batch_size"], cfg["feat_dim"], generator=gen), dim=1)
    centers = F.normalize(torch.randn(cfg["num_classes"], cfg["feat_dim"], generator=gen), dim=1)
    labels = torch.randint(0, cfg["num_classes"], (cfg["batch_size"],), generator=gen)
    return feats @ centers.t(), labels


if __name__ == "__main__":
    cfg = {"batch_size": 16, "feat_dim": 24, "num_classes": 5, "margin": 0.25, "gamma": 64.0}
    gen = torch.Generator().manual_seed(0)
    cos_sim, labels = make_batch(cfg, gen)
    criterion = CircleClassifierLoss(cfg["margin"], cfg["gamma"])
    print("circle loss:", criterion(cos_sim, labels).item())
