import torch
import torch.nn as nn
import torch.nn.functional as F

_SCALAR_DTYPES = {"int": torch.int32, "float": torch.float32}


class Vocab:
    def __init__(self, words):
        self.pad_id = 0
        self.unk_id = 1
        self.token_to_id = {w: i + 2 for i, w in enumerate(words)}

    def map_tokens(self, tokens):
        return [self.token_to_id.get(t, self.unk_id) for t in tokens]

    @property
    def size(self):
        return len(self.token_to_id) + 2


class ScalarData:
    """One scalar per line (class label, score, ...), batched into a tensor."""

    def __init__(self, lines, hparams):
        self.hparams = hparams
        cast = int if hparams["data_type"] == "int" else float
        self.values = [cast(line.strip()) for line in lines]

    def collate(self, idx):
        return torch.tensor([self.values[i] for i in idx], dtype=_SCALAR_DTYPES[self.hparams["data_type"]])


class MonoTextData:
    def __init__(self, lines, vocab, hparams):
        self.vocab = vocab
        self.hparams = hparams
        self.examples = [vocab.map_tokens(line.split())[: hparams["max_seq_length"]] for line in lines]

    def collate(self, idx):
        max_len = max(len(self.examples[i]) for i in idx)
        ids = torch.full((len(idx), max_len), self.vocab.pad_id, dtype=torch.long)
        for row, i in enumerate(idx):
            ids[row, : len(self.examples[i])] = torch.tensor(self.examples[i])
        return ids


class PairedData:
    def __init__(self, text, label, hparams):
        self.text, self.label, self.hparams = text, label, hparams

    def __iter__(self):
        n, bs = len(self.label.values), self.hparams["batch_size"]
        for start in range(0, n, bs):
            idx = list(range(start, min(n, start + bs)))
            yield {"text_ids": self.text.collate(idx), "label": self.label.collate(idx)}


class BagOfWordsClassifier(nn.Module):
    def __init__(self, hparams):
        super().__init__()
        self.embedder = nn.EmbeddingBag(hparams["vocab_size"], hparams["dim"], mode="mean", padding_idx=0)
        self.out = nn.Linear(hparams["dim"], hparams["num_classes"])

    def forward(self, text_ids):
        return self.out(self.embedder(text_ids))


def train_epoch(model, data, optimizer):
    total = 0.0
    for batch in data:
        logits = model(batch["text_ids"])
        loss = F.cross_entropy(logits, batch["label"])
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        total += loss.item()
    return total


if __name__ == "__main__":
    torch.manual_seed(0)
    sentences = [
        "a gripping and funny film", "dull plot and flat acting", "one of the best of the year",
        "i want my two hours back", "sharp writing and a great cast", "boring from start to end",
    ]
    labels = ["1", "0", "1", "0", "1", "0"]
    vocab = Vocab(sorted({w for s in sentences for w in s.split()}))
    data_hparams = {"batch_size": 4, "max_seq_length": 16, "label": {"data_type": "int"}}
    data = PairedData(
        MonoTextData(sentences, vocab, data_hparams),
        ScalarData(labels, data_hparams["label"]),
        data_hparams,
    )
    model = BagOfWordsClassifier({"vocab_size": vocab.size, "dim": 8, "num_classes": 2})
    optimizer = torch.optim.SGD(model.parameters(), lr=0.5)
    print("epoch loss:", train_epoch(model, data, optimizer))
