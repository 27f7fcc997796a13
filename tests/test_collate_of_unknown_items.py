"""A collate function of the file run on items the analysis does not know.

What the collate builds itself holds for any batch: an `np.zeros((B, n))` buffer the items are copied into is
float64 whatever the items are, and `torch.from_numpy` keeps it float64; gathering with it raises. Items
that come from a dataset whose rows are not tracked (a list of dicts of Python lists) used to leave the
collate unrun. Each claim runs in torch.
"""
import pytest

from .conftest import lint
from .snippets import call_run as run

torch = pytest.importorskip("torch")

FIRST_PIECES = '''
import numpy as np
import torch
import torch.nn as nn


class Sentences(torch.utils.data.Dataset):
    def __init__(self, sentences):
        self.items = []
        for words in sentences:
            self.items.append({"first": [2 * k for k in range(len(words))]})

    def __len__(self):
        return len(self.items)

    def __getitem__(self, i):
        return self.items[i]


def collate(batch):
    width = max(len(b["first"]) for b in batch)
    first = np.zeros((len(batch), width))
    for i, b in enumerate(batch):
        first[i, : len(b["first"])] = b["first"]
    return {"first": torch.from_numpy(first)}


def word_states(pieces, first):
    return torch.gather(pieces, 1, first.unsqueeze(-1).expand(-1, -1, pieces.size(-1)))


def run():
    loader = torch.utils.data.DataLoader(Sentences([["a", "b"], ["c", "d", "e"]]), batch_size=2, collate_fn=collate)
    for batch in loader:
        return word_states(torch.randn(2, 6, 4), batch["first"])


if __name__ == "__main__":
    run()
'''


def test_a_float64_buffer_built_by_the_collate_reaches_gather():
    found = lint(FIRST_PIECES)
    assert [(f.code, f.line) for f in found] == [("GL008", 29)]
    assert "float64" in found[0].message
    with pytest.raises(RuntimeError, match="Expected dtype int32/int64 for index"):
        run(FIRST_PIECES)


def test_an_int64_buffer_is_left_alone():
    fixed = FIRST_PIECES.replace("np.zeros((len(batch), width))", "np.zeros((len(batch), width), dtype=np.int64)")
    assert lint(fixed) == []
    assert run(fixed).shape == (2, 3, 4)


def test_a_collate_through_a_lambda_keeps_the_finding():
    code = FIRST_PIECES.replace("collate_fn=collate)", "collate_fn=lambda b: collate(b))")
    assert [f.code for f in lint(code)] == ["GL008"]
