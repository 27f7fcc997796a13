"""Python data lists of a known length, and the tensors made of them.

`[[0.1] * 8 for _ in range(40)]` is forty lists of eight floats, so `torch.tensor(rows)` is [40, 8];
`labels = [i % 5 for i in range(40)]` holds Python ints (int arithmetic gives an int even when its value is
unknown), so `torch.tensor(labels[i])` is a 0-d int64 tensor and a DataLoader stacks it into [B]. Every
shape claimed here is checked in torch."""
import textwrap

import pytest

from .conftest import lint

DATASET = '''
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, Dataset


class Pairs(Dataset):
    def __init__(self, feats, labels):
        self.feats = feats
        self.labels = labels

    def __len__(self):
        return len(self.labels)

    def __getitem__(self, i):
        return {"x": torch.tensor(self.feats[i], dtype=torch.float32), "y": torch.tensor(self.labels[i])}


def train(model, loader):
    for batch in loader:
        logits = model(batch["x"])
        picked = logits.gather(1, batch["y"]{COLUMN})
        print(picked.sum())


if __name__ == "__main__":
    feats = [[0.1] * 8 for _ in range(40)]
    labels = [i % 5 for i in range(40)]
    train(nn.Linear(8, 5), DataLoader(Pairs(feats, labels), batch_size=8))
'''


def _found(code: str):
    return [(f.code, f.line) for f in lint(textwrap.dedent(code))]


def test_items_built_from_python_lists_reach_the_batch(torch):
    assert _found(DATASET.replace("{COLUMN}", "")) == [("GL001", 22)]
    feats = [[0.1] * 8 for _ in range(40)]
    labels = [i % 5 for i in range(40)]
    assert torch.tensor(feats).shape == (40, 8) and torch.tensor(feats[3]).shape == (8,)
    y = torch.tensor(labels[3])
    assert y.shape == () and y.dtype == torch.int64
    batch_y = torch.utils.data.default_collate([torch.tensor(v) for v in labels[:8]])
    try:
        torch.randn(8, 5).gather(1, batch_y)
        raised = False
    except RuntimeError as exc:
        raised = "same number of dimensions" in str(exc)
    assert raised


def test_the_column_index_is_silent():
    assert _found(DATASET.replace("{COLUMN}", ".unsqueeze(1)")) == []


LISTS = '''
import torch

def pick(w, n):
    # w: [5, 3]
    rows = {ROWS}
    return w.index_select(1, torch.tensor(rows)[0])
'''


def test_written_rows_of_a_comprehension_are_read_for_their_values(torch):
    found = _found(LISTS.replace("{ROWS}", "[[1, 2, 3] for _ in range(4)]"))
    assert ("GL011", 7) in found  # row 0 holds 3, along a dim of size 3
    with pytest.raises((IndexError, RuntimeError), match="out of"):
        torch.randn(5, 3).index_select(1, torch.tensor([[1, 2, 3] for _ in range(4)])[0])


def test_lists_of_unknown_length_or_filtered_are_not_given_one():
    assert _found(LISTS.replace("{ROWS}", "[[0, 1, 2] for _ in range(n)]")) == []
    assert _found(LISTS.replace("{ROWS}", "[[0, 1, 2] for _ in range(4)]")) == []
    filtered = _found(LISTS.replace("{ROWS}", "[[0, 5] for k in range(9) if k % 2]"))
    assert "GL011" not in [c for c, _ in filtered]  # a filtered list's rows are not counted

