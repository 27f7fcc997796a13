import torch
import torch.nn as nn
from torch.utils.data import DataLoader, Dataset

CONFIG = {"vocab_size": 120, "hidden": 16, "batch_size": 3}


class ToyTokenizer:
    def __init__(self, vocab_size):
        self.vocab_size = vocab_size
        self.special = {}

    def add_special_tokens(self, name):
        self.special[name] = self.vocab_size + len(self.special)
        return self.special[name]

    def encode(self, text):
        return [(ord(c) * 7) % self.vocab_size for c in text]


class InstructionDataset(Dataset):
    def __init__(self, texts, tokenizer):
        self.items = [tokenizer.encode(t) for t in texts]

    def __len__(self):
        return len(self.items)

    def __getitem__(self, i):
        return torch.tensor(self.items[i])


def make_collate(pad_id):
    def collate(batch):
        width = max(len(x) for x in batch)
        out = torch.full((len(batch), width), pad_id, dtype=torch.long)
        for i, x in enumerate(batch):
            out[i, : len(x)] = x
        return out
    return collate


class TinyLM(nn.Module):
    def __init__(self, cfg):
        super().__init__()
        self.embed = nn.Embedding(cfg["vocab_size"], cfg["hidden"])
        self.head = nn.Linear(cfg["hidden"], cfg["vocab_size"])

    def forward(self, ids):
        return self.head(self.embed(ids))


if __name__ == "__main__":
    tok = ToyTokenizer(CONFIG["vocab_size"])
    pad_id = tok.add_special_tokens("pad")
    ds = InstructionDataset(["hello", "hi", "greetings"], tok)
    loader = DataLoader(ds, batch_size=CONFIG["batch_size"], collate_fn=make_collate(pad_id))
    model = TinyLM(CONFIG)
    for ids in loader:
        logits = model(ids)
        print(logits.shape)
