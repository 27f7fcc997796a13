import torch
import torch.nn as nn
from torch.utils.data import TensorDataset


def class_balanced_weights(labels, num_classes):
    counts = torch.zeros(num_classes)
    counts.index_add_(0, labels, torch.ones(labels.numel()))
    freq = counts / counts.sum()
    return 1.0 / (freq * num_classes).clamp_min(1e-6)


def build_criterion(dataset, num_classes):
    labels = torch.stack([y for _, y in dataset])
    return nn.CrossEntropyLoss(weight=class_balanced_weights(labels, num_classes))


if __name__ == "__main__":
    torch.manual_seed(0)
    feats = torch.randn(40, 8)
    labels = torch.cat([torch.zeros(25), torch.ones(10), torch.full((5,), 2.0)]).long()
    ds = TensorDataset(feats, labels)
    head = nn.Linear(8, 3)
    crit = build_criterion(ds, num_classes=3)
    counts = [0.0, 0.0, 0.0]
    for y in labels.tolist():
        counts[y] += 1.0
    ref = [1.0 / max(c / sum(counts) * 3, 1e-6) for c in counts]
    assert torch.allclose(crit.weight, torch.tensor(ref), atol=1e-5)
    crit(head(feats), labels)
    print("ok")
