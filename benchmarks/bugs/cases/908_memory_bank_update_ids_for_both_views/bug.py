import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, Dataset


class TwoViewDataset(Dataset):
    def __init__(self, images):
        self.images = images

    def __len__(self):
        return len(self.images)

    def __getitem__(self, i):
        x = self.images[i]
        return x + 0.05 * torch.randn_like(x), x.flip(-1), i


def two_view_collate(batch):
    v1 = torch.stack([b[0] for b in batch])
    v2 = torch.stack([b[1] for b in batch])
    ids = torch.tensor([b[2] for b in batch])
    return torch.cat([v1, v2]), torch.cat([ids, ids])


class MemoryBank:
    def __init__(self, size, dim, momentum=0.5):
        self.feats = F.normalize(torch.randn(size, dim), dim=1)
        self.m = momentum

    def update(self, ids, new_feats):
        mixed = self.m * self.feats[ids[: new_feats.shape[0]]] + (1 - self.m) * new_feats
        self.feats.index_copy_(0, ids, F.normalize(mixed, dim=1))


def train_epoch(encoder, bank, loader):
    for views, ids in loader:
        z = F.normalize(encoder(views), dim=1)
        z1, z2 = z.chunk(2)
        bank.update(ids, (z1 + z2) / 2)


if __name__ == "__main__":
    torch.manual_seed(0)
    encoder = nn.Sequential(nn.Flatten(), nn.Linear(3 * 8 * 8, 16))
    data = TwoViewDataset(torch.randn(12, 3, 8, 8))
    bank = MemoryBank(size=12, dim=16)
    train_epoch(encoder, bank, DataLoader(data, batch_size=4, collate_fn=two_view_collate))
    print("bank norms", bank.feats.norm(dim=1))
