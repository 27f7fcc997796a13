import torch
import torch.nn.functional as F
from torch import nn
from torch.utils.data import DataLoader, Dataset


class ReIDImages(Dataset):
    def __init__(self, filenames, feat_dim=32):
        self.filenames = filenames
        self.feat_dim = feat_dim
        self.pids = sorted({int(name.split("_")[0]) for name in filenames})

    def __len__(self):
        return len(self.filenames)

    def __getitem__(self, i):
        name = self.filenames[i]
        pid = int(name.split("_")[0])
        g = torch.Generator().manual_seed(i)
        img = torch.randn(self.feat_dim, generator=g)  # (D,) pooled backbone feature
        return img, pid


class FocalCE(nn.Module):
    def __init__(self, gamma=1.0):
        super().__init__()
        self.gamma = gamma

    def forward(self, logits, target):
        # logits: (B, C), target: (B,)
        logpt = F.log_softmax(logits, dim=1)
        logpt = torch.gather(logpt, 1, target.view(-1, 1)).view(-1)  # (B,)
        pt = logpt.exp()
        return (-((1 - pt) ** self.gamma) * logpt).mean()


def train_step(head, loader, criterion):
    losses = []
    for feats, pids in loader:
        logits = head(feats)  # (B, num_ids)
        losses.append(criterion(logits, pids))
    return torch.stack(losses).mean()


if __name__ == "__main__":
    torch.manual_seed(0)
    names = ["0002_c1s1_000451_03.jpg", "0007_c2s3_070952_01.jpg", "0010_c1s1_001076_02.jpg",
             "0002_c3s1_000551_01.jpg", "1500_c6s3_085567_02.jpg", "0007_c5s1_005201_01.jpg"]
    ds = ReIDImages(names)
    head = nn.Linear(32, len(ds.pids))
    loss = train_step(head, DataLoader(ds, batch_size=3), FocalCE())
    print(loss)
