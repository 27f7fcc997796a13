import torch
import torch.nn as nn
import torch.nn.functional as F


class ClassBalancedCE(nn.Module):
    def __init__(self, num_classes, beta=0.99):
        super().__init__()
        self.num_classes = num_classes
        self.beta = beta

    def class_weights(self, labels):
        counts = torch.zeros(self.num_classes)
        counts.scatter_add_(0, labels, torch.ones(labels.numel()))
        effective = 1.0 - torch.pow(self.beta, counts)
        weights = (1.0 - self.beta) / effective.clamp_min(1e-8)
        return weights / weights.sum() * self.num_classes

    def forward(self, logits, labels):
        return F.cross_entropy(logits, labels, weight=self.class_weights(labels))


def main():
    torch.manual_seed(0)
    classifier = nn.Linear(12, 5)
    criterion = ClassBalancedCE(num_classes=5)
    features = torch.randn(40, 12)
    labels = torch.cat([torch.zeros(20, dtype=torch.long), torch.randint(1, 5, (20,))])
    loss = criterion(classifier(features), labels)
    import math
    counts = [0] * 5
    for y in labels.tolist():
        counts[y] += 1
    w = [(1 - 0.99) / max(1 - 0.99 ** c, 1e-8) for c in counts]
    w = [x / sum(w) * 5 for x in w]
    with torch.no_grad():
        logits = classifier(features)
    num, den = 0.0, 0.0
    for i, y in enumerate(labels.tolist()):
        row = [float(v) for v in logits[i]]
        lse = math.log(sum(math.exp(v) for v in row))
        num += w[y] * (lse - row[y])
        den += w[y]
    assert abs(loss.item() - num / den) < 1e-5, (loss.item(), num / den)
    print("ok")


if __name__ == "__main__":
    main()
