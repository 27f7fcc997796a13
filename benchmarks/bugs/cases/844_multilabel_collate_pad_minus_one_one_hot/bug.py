import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, Dataset

CONFIG = {"num_tags": 6, "feat_dim": 10, "label_pad": -1, "batch_size": 4}


class TaggedClips(Dataset):
    def __init__(self, n, cfg):
        g = torch.Generator().manual_seed(0)
        self.feats = torch.randn(n, cfg["feat_dim"], generator=g)
        self.tags = [torch.randperm(cfg["num_tags"], generator=g)[: 1 + i % 3] for i in range(n)]

    def __len__(self):
        return len(self.tags)

    def __getitem__(self, i):
        return self.feats[i], self.tags[i]


def collate(batch, pad=CONFIG["label_pad"]):
    feats = torch.stack([f for f, _ in batch])
    tags = nn.utils.rnn.pad_sequence([t for _, t in batch], batch_first=True, padding_value=pad)
    return feats, tags


def multi_hot(tags, num_tags):
    return F.one_hot(tags, num_tags).amax(dim=1).float()


def train_step(model, feats, tags, cfg):
    target = multi_hot(tags, cfg["num_tags"])
    return F.binary_cross_entropy_with_logits(model(feats), target)


if __name__ == "__main__":
    torch.manual_seed(0)
    loader = DataLoader(TaggedClips(8, CONFIG), batch_size=CONFIG["batch_size"], collate_fn=collate)
    model = nn.Linear(CONFIG["feat_dim"], CONFIG["num_tags"])
    for feats, tags in loader:
        print(train_step(model, feats, tags, CONFIG).item())
