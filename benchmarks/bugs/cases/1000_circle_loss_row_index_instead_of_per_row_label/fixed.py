import torch
import torch.nn as nn
import torch.nn.functional as F


class CircleClassifierLoss(nn.Module):
    def __init__(self, margin, gamma):
        super().__init__()
        self.m = margin
        self.gamma = gamma

    def forward(self, cos_sim, label):
        col = label.unsqueeze(1)
        alpha = torch.clamp_min(cos_sim + self.m, min=0).detach()
        pos_alpha = torch.clamp_min(-cos_sim.gather(1, col) + 1 + self.m, min=0).detach()
        alpha = alpha.scatter(1, col, pos_alpha)
        delta = torch.full_like(cos_sim, self.m).scatter(1, col, 1 - self.m)
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
    loss = criterion(cos_sim, labels)
    import math
    m, g = cfg["margin"], cfg["gamma"]
    total = 0.0
    for i in range(cfg["batch_size"]):
        y = int(labels[i])
        row = []
        for j in range(cfg["num_classes"]):
            s = float(cos_sim[i, j])
            if j == y:
                row.append(g * max(1 + m - s, 0.0) * (s - (1 - m)))
            else:
                row.append(g * max(s + m, 0.0) * (s - m))
        mx = max(row)
        total += -(row[y] - mx - math.log(sum(math.exp(v - mx) for v in row)))
    assert abs(loss.item() - total / cfg["batch_size"]) < 1e-4
    print("ok")
