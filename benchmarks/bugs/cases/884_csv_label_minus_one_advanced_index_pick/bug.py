import csv
import io

import torch
import torch.nn.functional as F

CSV_TEXT = """text,label
great product,1
terrible support,0
not sure yet,-1
love it,1
meh,-1
awful,0
"""

CONFIG = {"num_labels": 2, "hidden": 16, "vocab": 64, "seed": 0}


def read_rows(text):
    return [(r["text"], int(r["label"])) for r in csv.DictReader(io.StringIO(text))]


def collate(rows, vocab):
    ids = [torch.tensor([sum(map(ord, w)) % vocab for w in t.split()]) for t, _ in rows]
    ids = torch.nn.utils.rnn.pad_sequence(ids, batch_first=True)
    labels = torch.tensor([y for _, y in rows])
    return ids, labels


class BagClassifier(torch.nn.Module):
    def __init__(self, cfg):
        super().__init__()
        self.emb = torch.nn.EmbeddingBag(cfg["vocab"], cfg["hidden"], mode="mean")
        self.head = torch.nn.Linear(cfg["hidden"], cfg["num_labels"])

    def forward(self, ids):
        return self.head(self.emb(ids))


def classification_loss(logits, labels):
    logp = F.log_softmax(logits, dim=-1)
    picked = logp[torch.arange(len(labels)), labels]
    return -picked.mean()


def train_step(model, rows, cfg):
    ids, labels = collate(rows, cfg["vocab"])
    return classification_loss(model(ids), labels)


if __name__ == "__main__":
    torch.manual_seed(CONFIG["seed"])
    model = BagClassifier(CONFIG)
    loss = train_step(model, read_rows(CSV_TEXT), CONFIG)
    print("loss", round(loss.item(), 4))
