import torch
import torch.nn.functional as F
from dataclasses import dataclass


@dataclass
class TrainConfig:
    num_classes: int = 4
    smoothing: float = 1.0


def class_counts(labels, num_classes):
    counts = torch.zeros(num_classes)
    counts.index_add_(0, labels, torch.ones(labels.shape[0]))
    return counts


def balanced_weights(labels, cfg):
    counts = class_counts(labels, cfg.num_classes) + cfg.smoothing
    w = counts.sum() / (cfg.num_classes * counts)
    return w


def train_step(model, batch, cfg):
    feats, labels = batch
    logits = model(feats)
    weights = balanced_weights(labels, cfg)
    return F.cross_entropy(logits, labels, weight=weights)


if __name__ == "__main__":
    torch.manual_seed(0)
    cfg = TrainConfig()
    model = torch.nn.Linear(6, cfg.num_classes)
    feats, labels = torch.randn(10, 6), torch.tensor([0, 1, 1, 3, 3, 3, 0, 2, 3, 1])
    counts = class_counts(labels, cfg.num_classes)
    ref = [0.0] * cfg.num_classes
    for y in labels.tolist():
        ref[y] += 1.0
    assert counts.tolist() == ref
    loss = train_step(model, (feats, labels), cfg)
    w = balanced_weights(labels, cfg)
    logp = model(feats).log_softmax(-1)
    num = sum(-w[y] * logp[i, y] for i, y in enumerate(labels.tolist()))
    den = sum(w[y] for y in labels.tolist())
    assert torch.allclose(loss, num / den, atol=1e-6)
    print("ok")
