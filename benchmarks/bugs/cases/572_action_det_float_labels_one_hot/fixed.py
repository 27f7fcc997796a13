import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, Dataset

CFG = {"num_classes": 6, "feat_dim": 32, "clips": 10, "batch_size": 4}


class ClipActionDataset(Dataset):
    def __init__(self, cfg, seed=0):
        g = torch.Generator().manual_seed(seed)
        self.feats = torch.randn(cfg["clips"], cfg["feat_dim"], generator=g)
        boxes = torch.rand(cfg["clips"], 4, generator=g)
        labels = torch.randint(0, cfg["num_classes"], (cfg["clips"], 1), generator=g)
        self.annots = torch.cat([boxes, labels.float()], dim=1)

    def __len__(self):
        return len(self.feats)

    def __getitem__(self, i):
        row = self.annots[i]
        return {"feat": self.feats[i], "bbox": row[:4], "label": row[4].long()}


def collate(items):
    return {k: torch.stack([it[k] for it in items]) for k in items[0]}


class ActionHead(nn.Module):
    def __init__(self, cfg):
        super().__init__()
        self.num_classes = cfg["num_classes"]
        self.fc = nn.Linear(cfg["feat_dim"], cfg["num_classes"])

    def loss(self, batch):
        logits = self.fc(batch["feat"])
        target = F.one_hot(batch["label"], self.num_classes).to(logits.dtype)
        return F.binary_cross_entropy_with_logits(logits, target)


def train_one_epoch(cfg):
    torch.manual_seed(0)
    head = ActionHead(cfg)
    loader = DataLoader(ClipActionDataset(cfg), batch_size=cfg["batch_size"], collate_fn=collate)
    losses = [head.loss(batch).item() for batch in loader]
    return head, losses


if __name__ == "__main__":
    head, losses = train_one_epoch(CFG)
    ds = ClipActionDataset(CFG)
    i = 0
    for loss in losses:
        terms = []
        for j in range(i, min(i + CFG["batch_size"], len(ds))):
            logits = head.fc(ds.feats[j])
            cls = int(ds.annots[j, 4])
            for c in range(CFG["num_classes"]):
                y = 1.0 if c == cls else 0.0
                terms.append(F.binary_cross_entropy_with_logits(logits[c], torch.tensor(y)).item())
        assert abs(loss - sum(terms) / len(terms)) < 1e-5
        i += CFG["batch_size"]
    print("ok")
