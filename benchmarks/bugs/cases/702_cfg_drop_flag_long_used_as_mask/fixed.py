import random

import torch
import torch.nn as nn
from torch.utils.data import DataLoader, Dataset


class PriorTokenDataset(Dataset):
    def __init__(self, cfg, n_items=8):
        g = torch.Generator().manual_seed(cfg["seed"])
        self.tokens = torch.randint(1, cfg["prior_vocab"], (n_items, cfg["prior_len"]), generator=g)
        self.targets = torch.randn(n_items, cfg["dim"], generator=g)
        self.drop_prob = cfg["cond_drop_prob"]
        self.rng = random.Random(cfg["seed"])

    def __len__(self):
        return len(self.tokens)

    def __getitem__(self, i):
        drop = torch.tensor(self.rng.random() < self.drop_prob)
        return {"prior_tokens": self.tokens[i], "target": self.targets[i], "prior_token_drop": drop}


class PriorConditioner(nn.Module):
    def __init__(self, cfg):
        super().__init__()
        self.prior_embedding = nn.Embedding(cfg["prior_vocab"], cfg["dim"])
        self.proj = nn.Linear(cfg["dim"], cfg["dim"])

    def forward(self, batch):
        prior = self.prior_embedding(batch["prior_tokens"])
        prior[batch["prior_token_drop"]] = 0.0
        return self.proj(prior.mean(1)), prior


def run(cfg):
    torch.manual_seed(cfg["seed"])
    loader = DataLoader(PriorTokenDataset(cfg), batch_size=cfg["batch_size"])
    model = PriorConditioner(cfg)
    batch = next(iter(loader))
    with torch.no_grad():
        _, prior = model(batch)
    zeroed = (prior.abs().sum((1, 2)) == 0).tolist()
    return batch["prior_token_drop"].tolist(), zeroed


if __name__ == "__main__":
    cfg = {"seed": 3, "prior_vocab": 64, "prior_len": 5, "dim": 16, "cond_drop_prob": 0.3, "batch_size": 8}
    flags, zeroed = run(cfg)
    expected = [bool(f) for f in flags]
    for i in range(len(flags)):
        assert zeroed[i] == expected[i], (i, flags, zeroed)
    print("ok")
