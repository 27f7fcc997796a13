import torch
import torch.nn as nn
from torch.utils.data import TensorDataset


def class_balanced_weights(labels, num_classes):
    counts = torch.zeros(num_classes)
    counts.index_add_(0, labels, torch.ones(num_classes))
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
    print("class weights:", crit.weight.tolist())
    print("loss:", crit(head(feats), labels).item())
