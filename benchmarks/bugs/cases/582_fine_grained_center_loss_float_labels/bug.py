import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, Dataset


class BirdCropDataset(Dataset):
    """Rows of an annotation table: precomputed crop features plus a class column."""

    def __init__(self, table, feat_cols):
        self.table = table
        self.feat_cols = feat_cols

    def __len__(self):
        return len(self.table)

    def __getitem__(self, i):
        row = self.table[i]
        feats = torch.from_numpy(row[: self.feat_cols].astype(np.float32))
        label = row[self.feat_cols]
        return feats, label


class AttentionPoolClassifier(nn.Module):
    def __init__(self, in_dim, num_classes, embed_dim):
        super().__init__()
        self.proj = nn.Linear(in_dim, embed_dim)
        self.head = nn.Linear(embed_dim, num_classes)
        self.register_buffer("feature_center", torch.zeros(num_classes, embed_dim))

    def forward(self, x):
        emb = F.normalize(self.proj(x), dim=-1)
        return self.head(emb), emb


def train_step(model, batch, beta=0.05, center_weight=1.0):
    x, y = batch
    logits, emb = model(x)
    center_batch = F.normalize(model.feature_center[y], dim=-1)
    with torch.no_grad():
        model.feature_center.index_add_(0, y, beta * (emb.detach() - center_batch))
    loss = F.cross_entropy(logits, y.long()) + center_weight * (emb - center_batch).pow(2).sum(-1).mean()
    return loss


def load_table(cfg, rng):
    # what np.loadtxt on the annotation csv gives back: one float64 table
    feats = rng.standard_normal((cfg["num_rows"], cfg["feat_dim"]))
    labels = rng.integers(0, cfg["num_classes"], size=(cfg["num_rows"], 1))
    return np.hstack([feats, labels]).astype(np.float64)


if __name__ == "__main__":
    cfg = {"num_rows": 40, "feat_dim": 12, "num_classes": 5, "embed_dim": 8, "batch_size": 8}
    rng = np.random.default_rng(0)
    torch.manual_seed(0)
    table = load_table(cfg, rng)
    loader = DataLoader(BirdCropDataset(table, cfg["feat_dim"]), batch_size=cfg["batch_size"])
    model = AttentionPoolClassifier(cfg["feat_dim"], cfg["num_classes"], cfg["embed_dim"])
    for batch in loader:
        loss = train_step(model, batch)
        print("loss", round(loss.item(), 4))
