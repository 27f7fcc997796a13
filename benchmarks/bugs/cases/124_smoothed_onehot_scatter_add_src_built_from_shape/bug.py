import torch
import torch.nn as nn


class SmoothedOneHotLoss(nn.Module):
    def __init__(self, classes, smoothing=0.1):
        super().__init__()
        self.classes = classes
        self.smoothing = smoothing

    def _one_hot(self, labels, value=1.0):
        one_hot = torch.zeros(labels.size(0), self.classes)
        labels = labels.view(labels.size(0), -1)
        value_added = one_hot.new_tensor((labels.size(0), 1)).fill_(value)
        one_hot.scatter_add_(1, labels, value_added)
        return one_hot

    def forward(self, logits, labels):
        target = self._one_hot(labels, 1.0 - self.smoothing) + self.smoothing / self.classes
        return -(target * logits.log_softmax(dim=-1)).sum(dim=-1).mean()


def make_batch(cfg):
    feats = torch.randn(cfg["batch"], cfg["features"])
    labels = torch.randint(0, cfg["classes"], (cfg["batch"],))
    return feats, labels


if __name__ == "__main__":
    torch.manual_seed(0)
    cfg = {"batch": 16, "features": 12, "classes": 8}
    head = nn.Linear(cfg["features"], cfg["classes"])
    feats, labels = make_batch(cfg)
    criterion = SmoothedOneHotLoss(cfg["classes"])
    loss = criterion(head(feats), labels)
    lp = head(feats).log_softmax(-1)
    ref = torch.stack([-(0.1 / 8 * lp[i].sum() + 0.9 * lp[i, labels[i]]) for i in range(16)]).mean()
    print("loss:", loss.item(), "reference:", ref.item())
