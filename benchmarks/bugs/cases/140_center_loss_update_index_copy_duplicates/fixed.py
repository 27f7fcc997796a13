import torch
import torch.nn as nn


class CenterLoss(nn.Module):
    """Center loss (Wen et al. 2016) with the centers moved by the averaged per-class update."""

    def __init__(self, num_classes, feat_dim, alpha=0.5):
        super().__init__()
        self.num_classes = num_classes
        self.alpha = alpha
        self.register_buffer("centers", torch.randn(num_classes, feat_dim))  # [C, D]

    def forward(self, features, labels):
        # features: [N, D], labels: [N]
        batch_centers = self.centers.index_select(0, labels)  # [N, D]
        loss = 0.5 * ((features - batch_centers) ** 2).sum(dim=1).mean()
        if self.training:
            with torch.no_grad():
                counts = torch.bincount(labels, minlength=self.num_classes).float()  # [C]
                delta = (batch_centers - features) / (1.0 + counts[labels]).unsqueeze(1)  # [N, D]
                # c_j <- c_j - alpha * sum_{i: y_i = j} delta_i
                self.centers.index_add_(0, labels, -self.alpha * delta)
        return loss


if __name__ == "__main__":
    torch.manual_seed(0)
    criterion = CenterLoss(num_classes=3, feat_dim=4)
    before = criterion.centers.clone()
    features = torch.randn(12, 4)  # [12, 4]
    labels = torch.tensor([0, 1, 0, 2, 2, 0, 1, 1, 0, 2, 0, 1])  # [12]
    loss = criterion(features, labels)
    moved = (criterion.centers - before).norm(dim=1)
    # with the averaged update every center moves alpha * n_j / (1 + n_j) of the way to its class mean
    target = before + 0.5 * torch.stack([
        (labels == c).sum() / (1 + (labels == c).sum()) * (features[labels == c].mean(0) - before[c]) for c in range(3)
    ])
    ref = before.clone()
    for c in range(3):
        n = sum(1 for y in labels.tolist() if y == c)
        for i, y in enumerate(labels.tolist()):
            if y == c:
                ref[c] -= 0.5 * (before[c] - features[i]) / (1 + n)
    assert torch.allclose(criterion.centers, ref, atol=1e-6)
    assert torch.allclose(criterion.centers, target, atol=1e-6)
    print("loss:", loss.item())
    print("ok")
