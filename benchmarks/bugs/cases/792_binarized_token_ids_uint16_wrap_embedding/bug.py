import numpy as np
import torch
from torch import nn
from torch.utils.data import DataLoader, Dataset

CONFIG = {"vocab_size": 70000, "dim": 8, "pad_id": 0, "batch_size": 2}


def binarize(corpus):
    """Turn token-id lists into compact arrays before dumping them to disk."""
    return [np.asarray(seq).astype(np.uint16) for seq in corpus]


class TokenDumpDataset(Dataset):
    def __init__(self, arrays):
        self.arrays = arrays

    def __len__(self):
        return len(self.arrays)

    def __getitem__(self, i):
        return torch.from_numpy(self.arrays[i].astype(np.int64))


def collate(batch):
    longest = max(len(x) for x in batch)
    out = torch.full((len(batch), longest), CONFIG["pad_id"], dtype=torch.long)
    for i, x in enumerate(batch):
        out[i, : len(x)] = x
    return out


class Student(nn.Module):
    def __init__(self, cfg):
        super().__init__()
        self.embed = nn.Embedding(cfg["vocab_size"], cfg["dim"], padding_idx=cfg["pad_id"])

    def forward(self, ids):
        return self.embed(ids).mean(dim=1)


def run(corpus):
    torch.manual_seed(0)
    model = Student(CONFIG)
    loader = DataLoader(TokenDumpDataset(binarize(corpus)), batch_size=CONFIG["batch_size"], collate_fn=collate)
    feats, seen = [], []
    for ids in loader:
        seen.append(ids)
        feats.append(model(ids))
    return model, torch.cat(feats), seen


if __name__ == "__main__":
    corpus = [[101, 66012, 2054, 119], [101, 69999, 65536, 7, 119]]
    model, feats, seen = run(corpus)
    print("ids seen by the model:", seen[0].tolist())
    print("pooled features:", feats[:, :3])
