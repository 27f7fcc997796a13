import torch
import torch.nn.functional as F

IGNORE = -1


def collate(samples):
    # samples: list of (features [D], label int or None for unlabeled)
    feats = torch.stack([f for f, _ in samples])              # [B, D]
    labels = torch.tensor([IGNORE if y is None else y for _, y in samples])  # [B]
    return feats, labels


class WeightedSmoothedCE:
    def __init__(self, class_weight, smoothing=0.1):
        self.class_weight = class_weight                       # [C]
        self.smoothing = smoothing

    def __call__(self, logits, target):
        # logits: [B, C], target: [B] with IGNORE for unlabeled rows
        logp = F.log_softmax(logits, dim=-1)                   # [B, C]
        valid = target != IGNORE                               # [B]
        safe_t = target.clamp(min=0)
        nll = -logp.gather(1, safe_t.unsqueeze(1)).squeeze(1)  # [B]
        smooth = -logp.mean(dim=-1)                            # [B]
        per_row = (1 - self.smoothing) * nll + self.smoothing * smooth
        w = self.class_weight[safe_t] * valid                  # [B]
        return (per_row * w).sum() / w.sum()


if __name__ == "__main__":
    torch.manual_seed(0)
    samples = [(torch.randn(5), y) for y in [0, 2, None, 1, None, 2]]
    x, y = collate(samples)
    head = torch.nn.Linear(5, 3)
    crit = WeightedSmoothedCE(torch.tensor([1.0, 2.0, 4.0]))
    logits = head(x)
    loss = crit(logits, y)
    num, den = 0.0, 0.0
    cw = [1.0, 2.0, 4.0]
    for i in range(len(y)):
        if int(y[i]) == IGNORE:
            continue
        lp = F.log_softmax(logits[i], dim=-1)
        row = 0.9 * -lp[int(y[i])] + 0.1 * -lp.mean()
        num += cw[int(y[i])] * row
        den += cw[int(y[i])]
    assert torch.allclose(loss, num / den), (loss, num / den)
    print("ok")
