import torch
import torch.nn as nn


class LabelSmoothing(nn.Module):
    def __init__(self, size, padding_idx, smoothing=0.0):
        super().__init__()
        self.criterion = nn.KLDivLoss(reduction="sum")
        self.padding_idx = padding_idx
        self.confidence = 1.0 - smoothing
        self.smoothing = smoothing
        self.size = size
        self.true_dist = None

    def forward(self, x, target):
        true_dist = x.detach().clone()
        true_dist.fill_(self.smoothing / (self.size - 2))
        true_dist.scatter_(1, target.unsqueeze(1), self.confidence)
        true_dist[:, self.padding_idx] = 0
        pad_rows = torch.nonzero(target == self.padding_idx)
        if pad_rows.numel() > 0:
            true_dist.index_fill_(0, pad_rows, 0.0)
        self.true_dist = true_dist
        return self.criterion(x, true_dist)


def make_batch(cfg, generator):
    logits = torch.randn(cfg["tokens"], cfg["vocab"], generator=generator)
    target = torch.randint(1, cfg["vocab"], (cfg["tokens"],), generator=generator)
    target[cfg["pad_positions"]] = cfg["pad"]
    return logits.log_softmax(-1), target


if __name__ == "__main__":
    cfg = {"vocab": 11, "tokens": 9, "pad": 0, "pad_positions": [6, 7, 8], "smoothing": 0.1}
    gen = torch.Generator().manual_seed(0)
    log_probs, target = make_batch(cfg, gen)
    crit = LabelSmoothing(cfg["vocab"], cfg["pad"], cfg["smoothing"])
    print("smoothed KL:", crit(log_probs, target).item())
