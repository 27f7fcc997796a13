import torch
import torch.nn as nn


class PointNetCls(nn.Module):
    def __init__(self, num_classes=5, feat_dim=32):
        super().__init__()
        self.point_mlp = nn.Sequential(nn.Conv1d(3, feat_dim, 1), nn.ReLU(), nn.Conv1d(feat_dim, feat_dim, 1))
        self.head = nn.Sequential(nn.Linear(feat_dim, 16), nn.ReLU(), nn.Linear(16, num_classes))

    def forward(self, points):
        # points: [B, 3, N]
        feats = self.point_mlp(points)          # [B, C, N]
        global_feat = feats.max(dim=2).values   # [B, C]
        logits = self.head(global_feat)         # [B, K]
        return torch.log_softmax(logits, dim=1)


def classification_loss(log_probs, target, class_weight):
    # log_probs: [B, K], target: [B], class_weight: [K]
    picked = log_probs.gather(1, target.unsqueeze(1)).squeeze(1)   # [B]
    w = class_weight[target]                                          # [B]
    return -(w * picked).sum() / w.sum()


if __name__ == "__main__":
    import math
    torch.manual_seed(0)
    model = PointNetCls()
    points = torch.randn(8, 3, 128)
    target = torch.randint(0, 5, (8,))
    class_weight = torch.tensor([1.0, 2.0, 1.0, 0.5, 1.5])
    with torch.no_grad():
        log_probs = model(points)
        loss = classification_loss(log_probs, target, class_weight)
        feats = model.point_mlp(points).max(dim=2).values
        logits = model.head(feats)
        num, den = 0.0, 0.0
        for b in range(8):
            row = [float(v) for v in logits[b]]
            m = max(row)
            lse = m + math.log(sum(math.exp(v - m) for v in row))
            t = int(target[b])
            num += float(class_weight[t]) * (row[t] - lse)
            den += float(class_weight[t])
        assert abs(loss.item() - (-num / den)) < 1e-5
        assert torch.allclose(log_probs.exp().sum(1), torch.ones(8), atol=1e-5)
    print("ok")
