from collections import Counter

import torch
import torch.nn as nn
from torch.nn.utils.rnn import pad_sequence
from torch.utils.data import DataLoader, Dataset

CONFIG = {"min_freq": 2, "emb_dim": 8, "num_classes": 3, "batch_size": 4}

CORPUS = [
    ("the movie was great fun", 2), ("the plot was dull", 0), ("great acting and great music", 2),
    ("dull and slow", 0), ("the music was fine", 1), ("slow start but great ending", 1),
]


def build_vocab(rows, min_freq):
    counts = Counter(tok for text, _ in rows for tok in text.split())
    itos = ["<pad>", "<unk>"] + sorted(w for w, c in counts.items() if c >= min_freq)
    return {w: i for i, w in enumerate(itos)}


class ReviewDataset(Dataset):
    def __init__(self, rows, stoi):
        self.rows, self.stoi = rows, stoi

    def __len__(self):
        return len(self.rows)

    def __getitem__(self, i):
        text, label = self.rows[i]
        return torch.tensor([self.stoi.get(t, 1) for t in text.split()]), label


def collate(batch):
    ids, labels = zip(*batch)
    return pad_sequence(list(ids), batch_first=True), torch.tensor(labels)


class BagClassifier(nn.Module):
    def __init__(self, cfg):
        super().__init__()
        self.embedding = nn.Embedding(cfg["vocab_size"], cfg["emb_dim"], padding_idx=0)
        self.out = nn.Linear(cfg["emb_dim"], cfg["num_classes"])

    def forward(self, tokens):
        emb = self.embedding(tokens)
        lengths = (tokens != 0).sum(1, keepdim=True)
        return self.out(emb.sum(1) / lengths)


if __name__ == "__main__":
    torch.manual_seed(0)
    vocab = build_vocab(CORPUS, CONFIG["min_freq"])
    CONFIG["vocab_size"] = len(vocab)
    loader = DataLoader(ReviewDataset(CORPUS, vocab), batch_size=CONFIG["batch_size"], collate_fn=collate)
    model = BagClassifier(CONFIG)
    with torch.no_grad():
        logits = torch.cat([model(tokens) for tokens, _ in loader])
        W = model.embedding.weight
        for i, (text, _) in enumerate(CORPUS):
            ids = [vocab.get(t, 1) for t in text.split()]
            assert max(ids) < W.size(0)
            pooled = sum(W[j] for j in ids) / len(ids)
            assert torch.allclose(logits[i], model.out(pooled), atol=1e-6)
    print("ok")
