import torch
from torch.utils.data import Dataset

CONFIG = {"num_items": 12, "num_classes": 5, "dim": 8, "seed": 3}


class FaceEmbeddingDataset(Dataset):
    def __init__(self, cfg):
        g = torch.Generator().manual_seed(cfg["seed"])
        self.feats = torch.randn(cfg["num_items"], cfg["dim"], generator=g)
        ids = torch.randint(0, cfg["num_classes"], (cfg["num_items"],), generator=g)
        self.identities = ids.to(torch.uint8)  # identities stored compactly

    def __len__(self):
        return len(self.identities)

    def __getitem__(self, i):
        return self.feats[i], self.identities[i]


class CenterTracker:
    def __init__(self, cfg):
        g = torch.Generator().manual_seed(cfg["seed"] + 1)
        self.centers = torch.randn(cfg["num_classes"], cfg["dim"], generator=g)

    def pull_distance(self, feat, identity):
        center = self.centers[identity]
        return ((feat - center) ** 2).sum()


def mean_center_distance(dataset, tracker):
    total = 0.0
    for i in range(len(dataset)):
        feat, identity = dataset[i]
        total += tracker.pull_distance(feat, identity).item()
    return total / len(dataset)


if __name__ == "__main__":
    ds = FaceEmbeddingDataset(CONFIG)
    tracker = CenterTracker(CONFIG)
    print("mean center distance:", mean_center_distance(ds, tracker))
