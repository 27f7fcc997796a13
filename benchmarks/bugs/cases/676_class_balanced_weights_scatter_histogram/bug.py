from dataclasses import dataclass

import torch
import torch.nn.functional as F


@dataclass
class LossConfig:
    num_classes: int = 6
    beta: float = 0.99


def label_histogram(labels, num_classes):
    hist = torch.zeros(num_classes, dtype=torch.float32)
    hist.scatter_(0, labels, torch.ones_like(labels, dtype=torch.float32))
    return hist


def class_balanced_weights(labels, cfg):
    counts = label_histogram(labels, cfg.num_classes)
    effective = (1.0 - cfg.beta ** counts) / (1.0 - cfg.beta)
    w = torch.where(counts > 0, 1.0 / effective.clamp(min=1e-8), torch.zeros_like(effective))
    return w * cfg.num_classes / w.sum()


def balanced_ce(logits, labels, cfg):
    return F.cross_entropy(logits, labels, weight=class_balanced_weights(labels, cfg))


def load_split(n, cfg, seed=0):
    g = torch.Generator().manual_seed(seed)
    probs = torch.tensor([0.5, 0.25, 0.12, 0.08, 0.04, 0.01])
    labels = torch.multinomial(probs, n, replacement=True, generator=g)
    logits = torch.randn(n, cfg.num_classes, generator=g)
    return logits, labels


if __name__ == "__main__":
    cfg = LossConfig()
    logits, labels = load_split(200, cfg)
    print("weights", class_balanced_weights(labels, cfg))
    print("loss", balanced_ce(logits, labels, cfg).item())
