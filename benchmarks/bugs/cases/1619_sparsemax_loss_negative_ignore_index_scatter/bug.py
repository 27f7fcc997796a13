import torch
import torch.nn as nn

CONFIG = {"vocab": 12, "hidden": 16, "pad_label": -1, "seed": 0}


def sparsemax(X, dim=-1):
    srt, _ = torch.sort(X, dim=dim, descending=True)
    cumsum = srt.cumsum(dim) - 1
    rho = torch.arange(1, X.size(dim) + 1, dtype=X.dtype, device=X.device)
    support = (rho * srt) > cumsum
    k = support.sum(dim=dim, keepdim=True)
    tau = cumsum.gather(dim, k - 1) / k.to(X.dtype)
    return torch.clamp(X - tau, min=0)


class SparsemaxLoss(nn.Module):
    def __init__(self, ignore_index=-100, reduction="elementwise_mean"):
        super().__init__()
        self.ignore_index = ignore_index
        self.reduction = reduction

    def loss(self, X, target):
        p_star = sparsemax(X)
        loss = (1 - (p_star ** 2).sum(dim=1)) / 2
        p_star = p_star.clone()
        p_star.scatter_add_(1, target.unsqueeze(1), torch.full_like(p_star, -1))
        return loss + (p_star * X).sum(dim=1)

    def forward(self, X, target):
        loss = self.loss(X, target)
        if self.ignore_index >= 0:
            ignored = target == self.ignore_index
            size = float((target.size(0) - ignored.sum()).item())
            loss = loss.masked_fill(ignored, 0.0)
        else:
            size = float(target.size(0))
        if self.reduction == "sum":
            return loss.sum()
        return loss.sum() / size


class TinyLM(nn.Module):
    def __init__(self, cfg):
        super().__init__()
        self.embed = nn.Embedding(cfg["vocab"], cfg["hidden"])
        self.out = nn.Linear(cfg["hidden"], cfg["vocab"])

    def forward(self, ids):
        return self.out(torch.tanh(self.embed(ids)))


def make_batch(cfg):
    g = torch.Generator().manual_seed(cfg["seed"])
    ids = torch.randint(0, cfg["vocab"], (3, 7), generator=g)
    labels = ids[:, 1:].clone()
    labels[0, 4:] = cfg["pad_label"]  # shorter sequences are padded in the labels
    labels[2, 5:] = cfg["pad_label"]
    return ids[:, :-1], labels


def train_step(model, criterion, ids, labels):
    logits = model(ids)
    return criterion(logits.reshape(-1, logits.size(-1)), labels.reshape(-1))


if __name__ == "__main__":
    torch.manual_seed(CONFIG["seed"])
    model = TinyLM(CONFIG)
    criterion = SparsemaxLoss(ignore_index=CONFIG["pad_label"])
    ids, labels = make_batch(CONFIG)
    loss = train_step(model, criterion, ids, labels)
    print("loss:", loss.item())
