import numpy as np
import torch
import torch.nn.functional as F
from torch.utils.data import DataLoader, Dataset

CFG = {"num_classes": 600, "feat_dim": 16, "batch_size": 4, "seed": 0}


def make_records(cfg):
    rng = np.random.default_rng(cfg["seed"])
    labels = [17, 300, 599, 256, 42, 511, 3, 420]
    return [{"feats": rng.standard_normal(cfg["feat_dim"]).astype(np.float32), "class_id": c} for c in labels]


class BoxCropDataset(Dataset):
    """Crops of detected boxes with their Open-Images-style class id."""

    def __init__(self, records):
        self.records = records

    def __len__(self):
        return len(self.records)

    def __getitem__(self, i):
        rec = self.records[i]
        label = np.asarray(rec["class_id"]).astype(np.uint8)
        return torch.from_numpy(rec["feats"]), torch.from_numpy(label).long()


class CropClassifier(torch.nn.Module):
    def __init__(self, cfg):
        super().__init__()
        self.fc = torch.nn.Linear(cfg["feat_dim"], cfg["num_classes"])

    def forward(self, feats):
        return self.fc(feats)


def target_logprob(logits, labels):
    logp = F.log_softmax(logits, dim=-1)
    return logp.gather(1, labels.view(-1, 1)).squeeze(1)


if __name__ == "__main__":
    torch.manual_seed(CFG["seed"])
    records = make_records(CFG)
    loader = DataLoader(BoxCropDataset(records), batch_size=CFG["batch_size"])
    model = CropClassifier(CFG)
    seen = []
    for feats, labels in loader:
        lp = target_logprob(model(feats), labels)
        seen.extend(labels.tolist())
    print("class ids in records:", [r["class_id"] for r in records])
    print("class ids scored:    ", seen)
