import torch
import torch.nn as nn
from torch.utils.data import DataLoader, Dataset

MODEL_CONFIG = {"vocab_size": 48, "hidden": 16, "num_labels": 3, "pad_id": 0}


class CharTokenizer:
    def __init__(self, alphabet, specials=("<pad>", "<unk>", "<s>", "</s>")):
        self.itos = list(specials) + list(alphabet)
        self.stoi = {t: i for i, t in enumerate(self.itos)}

    def __len__(self):
        return len(self.itos)

    def encode(self, text):
        unk = self.stoi["<unk>"]
        return [self.stoi["<s>"]] + [self.stoi.get(c, unk) for c in text] + [self.stoi["</s>"]]


class TweetDataset(Dataset):
    def __init__(self, rows, tokenizer):
        self.rows, self.tokenizer = rows, tokenizer

    def __len__(self):
        return len(self.rows)

    def __getitem__(self, i):
        text, label = self.rows[i]
        return torch.tensor(self.tokenizer.encode(text)), label


def collate(batch, pad_id):
    ids = nn.utils.rnn.pad_sequence([b[0] for b in batch], batch_first=True, padding_value=pad_id)
    return ids, torch.tensor([b[1] for b in batch])


class BagClassifier(nn.Module):
    def __init__(self, cfg):
        super().__init__()
        self.embed = nn.Embedding(cfg["vocab_size"], cfg["hidden"], padding_idx=cfg["pad_id"])
        self.head = nn.Linear(cfg["hidden"], cfg["num_labels"])
        self.pad_id = cfg["pad_id"]

    def forward(self, ids):
        mask = (ids != self.pad_id).unsqueeze(-1).float()
        h = self.embed(ids)
        pooled = (h * mask).sum(1) / mask.sum(1)
        return self.head(pooled)


def evaluate(model, loader):
    correct = total = 0
    with torch.no_grad():
        for ids, labels in loader:
            pred = model(ids).argmax(-1)
            correct += (pred == labels).sum().item()
            total += labels.numel()
    return correct / total


if __name__ == "__main__":
    torch.manual_seed(0)
    tokenizer = CharTokenizer("abcdefghijklmnopqrstuvwxyzæøå0123456789 .,!?#@")
    rows = [("godt gået!", 2), ("nej tak", 0), ("øv, 2 timer forsinket #dsb", 0), ("ok", 1)]
    loader = DataLoader(TweetDataset(rows, tokenizer), batch_size=2,
                        collate_fn=lambda b: collate(b, MODEL_CONFIG["pad_id"]))
    model = BagClassifier(MODEL_CONFIG)
    print("accuracy:", evaluate(model, loader))
