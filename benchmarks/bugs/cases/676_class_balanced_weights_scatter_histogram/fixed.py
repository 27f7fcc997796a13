from dataclasses import dataclass

import torch
import torch.nn.functional as F


@dataclass
class LossConfig:
    num_classes: int = 6
    beta: float = 0.99


def label_histogram(labels, num_classes):
    hist = torch.zeros(num_classes, dtype=torch.float32)
    hist.scatter_add_(0, labels, torch.ones_like(labels, dtype=torch.float32))
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
    w = class_balanced_weights(labels, cfg)
    counts = [0] * cfg.num_classes
    for y in labels.tolist():
        counts[y] += 1
    inv = [(1 - cfg.beta) / (1 - cfg.beta ** c) if c > 0 else 0.0 for c in counts]
    ref = [x * cfg.num_classes / sum(inv) for x in inv]
    assert torch.allclose(w, torch.tensor(ref), atol=1e-5)
    loss = balanced_ce(logits, labels, cfg)
    num = den = 0.0
    lsm = logits.log_softmax(-1)
    for i, y in enumerate(labels.tolist()):
        num += -ref[y] * lsm[i, y].item()
        den += ref[y]
    assert abs(loss.item() - num / den) < 1e-5
    print("ok")
