import numpy as np
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, Dataset


def narrowest_int_dtype(vocab_size):
    for dt in (np.int8, np.int16, np.int32):
        if vocab_size < np.iinfo(dt).max:
            return dt
    return np.int64


class TokenDocuments(Dataset):
    def __init__(self, docs, vocab_size):
        dtype = narrowest_int_dtype(vocab_size)
        self.docs = [np.asarray(d, dtype=dtype) for d in docs]

    def __len__(self):
        return len(self.docs)

    def __getitem__(self, i):
        return torch.from_numpy(self.docs[i])


def collate(batch):
    tokens = torch.stack(batch).to(torch.int64)
    return {"input_ids": tokens[:, :-1], "labels": tokens[:, 1:].clone()}


class TinyLM(nn.Module):
    def __init__(self, cfg):
        super().__init__()
        self.wte = nn.Embedding(cfg["vocab_size"], cfg["hidden"])
        self.head = nn.Linear(cfg["hidden"], cfg["vocab_size"])

    def forward(self, input_ids):
        return self.head(self.wte(input_ids))


def train_step(model, batch):
    logits = model(batch["input_ids"])
    return nn.functional.cross_entropy(logits.flatten(0, 1), batch["labels"].flatten())


if __name__ == "__main__":
    torch.manual_seed(0)
    cfg = {"vocab_size": 32000, "hidden": 16, "seq_len": 9}
    rng = np.random.default_rng(0)
    docs = [rng.integers(0, cfg["vocab_size"], cfg["seq_len"]) for _ in range(6)]
    loader = DataLoader(TokenDocuments(docs, cfg["vocab_size"]), batch_size=3, collate_fn=collate)
    model = TinyLM(cfg)
    for bi, batch in enumerate(loader):
        loss = train_step(model, batch)
        with torch.no_grad():
            ref, n = 0.0, 0
            for d in docs[bi * 3:(bi + 1) * 3]:
                for t in range(cfg["seq_len"] - 1):
                    row = model.head(model.wte.weight[int(d[t])])
                    ref += (torch.logsumexp(row, 0) - row[int(d[t + 1])]).item()
                    n += 1
        assert abs(loss.item() - ref / n) < 1e-4, (loss.item(), ref / n)
    print("ok")
