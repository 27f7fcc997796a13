import torch
import torch.nn as nn
import torch.nn.functional as F


def build_backbone(cfg):
    return nn.Sequential(
        nn.Flatten(),
        nn.Linear(cfg["channels"] * cfg["side"] ** 2, cfg["width"]),
        nn.ReLU(),
        nn.Linear(cfg["width"], cfg["num_classes"]),
    )


class IndexingModel(nn.Module):
    def __init__(self, cfg):
        super().__init__()
        self.net = build_backbone(cfg)

    def forward(self, images):
        logits = self.net(images)
        probs = F.softmax(logits, dim=0)
        return probs

    def score_items(self, images, labels):
        probs = self.forward(images)
        picked = probs.gather(1, labels.unsqueeze(1)).squeeze(1)
        return picked, probs


def load_items(cfg, n, seed=0):
    g = torch.Generator().manual_seed(seed)
    images = torch.rand(n, cfg["channels"], cfg["side"], cfg["side"], generator=g)
    labels = torch.randint(0, cfg["num_classes"], (n,), generator=g)
    return images, labels


if __name__ == "__main__":
    torch.manual_seed(0)
    cfg = {"channels": 3, "side": 8, "width": 64, "num_classes": 10}
    model = IndexingModel(cfg).eval()
    images, labels = load_items(cfg, 6)
    with torch.no_grad():
        conf, probs = model.score_items(images, labels)
    print("label confidence", [round(c, 3) for c in conf.tolist()])
    print("per-item probability mass", [round(s, 3) for s in probs.sum(1).tolist()])
