import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, Dataset


class RoiCropDataset(Dataset):
    """Pre-extracted RoI features with their ground-truth category."""

    def __init__(self, features, categories):
        self.features = features
        self.labels = torch.as_tensor(categories, dtype=torch.long)

    def __len__(self):
        return self.features.size(0)

    def __getitem__(self, i):
        return self.features[i], self.labels[i]


def collate_rois(batch):
    feats, labels = zip(*batch)
    return torch.stack(feats), torch.stack(labels)


class BoxHead(nn.Module):
    def __init__(self, in_channels, num_classes):
        super().__init__()
        self.fc = nn.Linear(in_channels, 256)
        self.cls_score = nn.Linear(256, num_classes)

    def forward(self, x):
        return self.cls_score(F.relu(self.fc(x)))


def classification_nll(class_logits, labels):
    log_probs = F.log_softmax(class_logits, dim=-1)
    gt = log_probs.gather(1, labels.long().unsqueeze(1)).squeeze(1)
    return -gt.mean(), gt


if __name__ == "__main__":
    torch.manual_seed(0)
    head = BoxHead(in_channels=64, num_classes=300)
    categories = torch.randint(0, 300, (32,))
    ds = RoiCropDataset(torch.randn(32, 64), categories)
    feats, labels = next(iter(DataLoader(ds, batch_size=32, collate_fn=collate_rois)))
    with torch.no_grad():
        loss, gt = classification_nll(head(feats), labels)
        log_probs = F.log_softmax(head(feats), dim=-1)
    for i in range(32):
        assert abs(gt[i].item() - log_probs[i, int(categories[i])].item()) < 1e-6
    print("ok")
