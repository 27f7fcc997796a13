import io

import numpy as np
import torch
import torch.nn.functional as F
from torch import nn
from torch.utils.data import DataLoader, Dataset

TRAIN_TXT = """0 1 3 0.0
2 0 1 0.0
3 2 0 24.0
1 1 2 24.0
4 0 3 48.5
0 2 4 48.5
"""


class QuadrupleDataset(Dataset):
    def __init__(self, text):
        self.data = np.loadtxt(io.StringIO(text))

    def __len__(self):
        return len(self.data)

    def __getitem__(self, i):
        return self.data[i]


class TemporalScorer(nn.Module):
    def __init__(self, cfg):
        super().__init__()
        self.ent_embeds = nn.Parameter(torch.randn(cfg["num_entities"], cfg["dim"]))
        self.rel_embeds = nn.Parameter(torch.randn(cfg["num_relations"], cfg["dim"]))
        self.decoder = nn.Linear(2 * cfg["dim"], cfg["num_entities"])

    def forward(self, quads):
        s, r, o = quads[:, 0], quads[:, 1], quads[:, 2]
        subj = self.ent_embeds.index_select(0, s)
        rel = self.rel_embeds.index_select(0, r)
        logits = self.decoder(torch.cat([subj, rel], dim=1))
        return F.cross_entropy(logits, o)


def train_epoch(model, loader, opt):
    total = 0.0
    for quads in loader:
        loss = model(quads)
        opt.zero_grad()
        loss.backward()
        opt.step()
        total += loss.item()
    return total / len(loader)


if __name__ == "__main__":
    torch.manual_seed(0)
    cfg = {"num_entities": 5, "num_relations": 3, "dim": 8, "batch_size": 3}
    model = TemporalScorer(cfg)
    loader = DataLoader(QuadrupleDataset(TRAIN_TXT), batch_size=cfg["batch_size"])
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    print("epoch loss:", train_epoch(model, loader, opt))
