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
        pad_rows = torch.nonzero(target == self.padding_idx).squeeze(1)
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
    loss = crit(log_probs, target)
    ref = 0.0
    for i in range(cfg["tokens"]):
        if int(target[i]) == cfg["pad"]:
            continue
        for v in range(1, cfg["vocab"]):
            p = 1 - cfg["smoothing"] if v == int(target[i]) else cfg["smoothing"] / (cfg["vocab"] - 2)
            ref += p * (torch.log(torch.tensor(p)) - log_probs[i, v]).item()
    assert abs(loss.item() - ref) < 1e-4
    print("ok")
