from dataclasses import dataclass

import torch
import torch.nn as nn
from torch.utils.data import DataLoader, Dataset


@dataclass
class LMConfig:
    vocab_size: int = 100
    n_positions: int = 16
    d_model: int = 8


class TabularTextDataset(Dataset):
    def __init__(self, rows, vocab_size, max_length):
        self.rows = rows
        self.vocab_size = vocab_size
        self.max_length = max_length

    def __len__(self):
        return len(self.rows)

    def __getitem__(self, i):
        text = ", ".join(f"{k} is {v}" for k, v in self.rows[i].items())
        return torch.tensor([ord(c) % self.vocab_size for c in text][: self.max_length])


def collate(batch):
    return nn.utils.rnn.pad_sequence(batch, batch_first=True)


class TinyLM(nn.Module):
    def __init__(self, cfg):
        super().__init__()
        self.wte = nn.Embedding(cfg.vocab_size, cfg.d_model)
        self.wpe = nn.Embedding(cfg.n_positions, cfg.d_model)
        self.head = nn.Linear(cfg.d_model, cfg.vocab_size)

    def forward(self, input_ids):
        pos = torch.arange(input_ids.size(1)).unsqueeze(0)
        h = self.wte(input_ids) + self.wpe(pos)
        return self.head(h)


if __name__ == "__main__":
    cfg = LMConfig()
    rows = [{"age": 39, "job": "clerk"}, {"age": 50, "job": "manager", "city": "Lyon"}]
    loader = DataLoader(TabularTextDataset(rows, cfg.vocab_size, cfg.n_positions), batch_size=2, collate_fn=collate)
    model = TinyLM(cfg)
    for ids in loader:
        out = model(ids)
        assert ids.size(1) <= cfg.n_positions
        for b in range(ids.size(0)):
            for t in range(ids.size(1)):
                h = model.wte.weight[ids[b, t]] + model.wpe.weight[t]
                assert torch.allclose(out[b, t], model.head(h), atol=1e-6)
    print("ok")
