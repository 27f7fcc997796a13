"""Batches made from a list of records: a DataLoader over a plain list, a collate function of the file that
builds tensors from the records' fields, `pad_sequence` of the id lists. What every record agrees on is what
the collate sees (ids of several lengths are still a list of ints, so `torch.tensor(ids)` is 1-d int64).
Each shape claimed here is checked in torch."""
import textwrap

import pytest

from .conftest import lint

PROGRAM = '''
import torch
import torch.nn as nn
from torch.nn.utils.rnn import pad_sequence
from torch.utils.data import DataLoader


def collate(batch):
    ids = [torch.tensor(b["ids"]) for b in batch]
    labels = torch.tensor([b["label"] for b in batch])
    ids = pad_sequence(ids, batch_first=True, padding_value=0)
    return ids, labels


class Classifier(nn.Module):
    def __init__(self, vocab, dim, classes):
        super().__init__()
        self.emb = nn.Embedding(vocab, dim)
        self.out = nn.Linear(dim, classes)

    def forward(self, ids):
        return self.out(self.emb(ids).mean(1))


def evaluate(model, loader):
    for ids, labels in loader:
        logp = model(ids).log_softmax(-1)
        print(logp.gather(1, labels{COLUMN}).mean())


if __name__ == "__main__":
    data = [{"ids": [1, 2, 3], "label": 1}, {"ids": [4, 5], "label": 0}] * 8
    evaluate(Classifier(10, 4, 3), DataLoader(data, batch_size=4, collate_fn=collate))
'''


def _found(code: str):
    return [(f.code, f.line) for f in lint(textwrap.dedent(code))]


def test_labels_collated_from_records_are_one_d(torch):
    assert _found(PROGRAM.replace("{COLUMN}", "")) == [("GL001", 28)]
    records = [{"ids": [1, 2, 3], "label": 1}, {"ids": [4, 5], "label": 0}] * 2
    labels = torch.tensor([b["label"] for b in records])
    ids = torch.nn.utils.rnn.pad_sequence([torch.tensor(b["ids"]) for b in records], batch_first=True)
    assert labels.shape == (4,) and labels.dtype == torch.int64 and ids.shape == (4, 3)
    with pytest.raises(RuntimeError, match="same number of dimensions"):
        torch.randn(4, 3).gather(1, labels)


def test_the_column_of_labels_is_silent():
    assert _found(PROGRAM.replace("{COLUMN}", ".unsqueeze(1)")) == []


PADDED = '''
import torch
from torch.nn.utils.rnn import pad_sequence

def stacked(w, seqs):
    # w: [4, 3]
    ids = pad_sequence([s for s in seqs], batch_first={FIRST})
    return w.gather(0, ids{KEY})

if __name__ == "__main__":
    stacked(torch.randn(4, 3), [torch.tensor([[0, 1, 2]] * 3), torch.tensor([[0, 1, 2]] * 2)])
'''


@pytest.mark.parametrize("first", ["True", "False"])
def test_pad_sequence_stacks_rows_of_the_sequences_trailing_shape(torch, first):
    found = _found(PADDED.replace("{FIRST}", first).replace("{KEY}", ""))
    assert [c for c, _ in found] == ["GL001"]  # a 3-d index for a 2-d input
    seqs = [torch.tensor([[0, 1, 2]] * 3), torch.tensor([[0, 1, 2]] * 2)]
    made = torch.nn.utils.rnn.pad_sequence(seqs, batch_first=first == "True")
    assert made.shape == ((2, 3, 3) if first == "True" else (3, 2, 3))
    assert _found(PADDED.replace("{FIRST}", first).replace("{KEY}", "[0]")) == []
