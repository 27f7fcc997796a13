import torch
import torch.nn.functional as F


def to_one_hot_3d(target, n_classes):
    n = target.size(0)
    spatial = target.shape[-3:]
    one_hot = torch.zeros(n, n_classes, *spatial)
    return one_hot.scatter_(1, target.unsqueeze(1), 1)


def dice_loss(logits, target, n_classes, eps=1e-5):
    probs = F.softmax(logits, dim=1)
    onehot = to_one_hot_3d(target, n_classes)
    dims = (0, 2, 3, 4)
    inter = (probs * onehot).sum(dims)
    union = probs.sum(dims) + onehot.sum(dims)
    return 1 - ((2 * inter + eps) / (union + eps)).mean()


def load_batch(cfg):
    volume = torch.randn(cfg["batch"], 1, *cfg["patch"])
    seg = torch.randint(0, cfg["classes"], (cfg["batch"], 1, *cfg["patch"]))
    return volume, seg


if __name__ == "__main__":
    torch.manual_seed(0)
    cfg = {"batch": 2, "patch": (8, 16, 16), "classes": 3}
    volume, seg = load_batch(cfg)
    logits = torch.randn(cfg["batch"], cfg["classes"], *cfg["patch"])
    print("dice loss:", dice_loss(logits, seg.long(), cfg["classes"]).item())
