"""Lists padded to a length, position ids made for that length, and a table too short for them.

General facts read here, each checked in torch:
- `a + b` of lists is as long as both together, `[v] * k` is k long: `ids + [pad] * (n - len(ids))` is n long
  whatever `ids` was, so `torch.tensor(rows)` of such rows is [len(rows), n];
- `list(range(a, b))` of known ints lists them;
- an optional tensor parameter a call leaves at its `None` default runs the `is None` branch, whatever a
  docstring says its shape is;
- values a view or an expand keeps (positions 0 to n-1 expanded over a batch of unknown size) keep their bound.
"""
import pytest

from .conftest import lint
from .snippets import call_run as run

torch = pytest.importorskip("torch")

ENCODER = '''
import torch
import torch.nn as nn


class Embeddings(nn.Module):
    def __init__(self, vocab, positions, width):
        super().__init__()
        self.words = nn.Embedding(vocab, width)
        self.positions = nn.Embedding(positions, width)

    def forward(self, input_ids, position_ids=None):
        """
        Args:
            input_ids (`torch.LongTensor` of shape `(batch_size, sequence_length)`): token ids.
            position_ids (`torch.LongTensor` of shape `(batch_size, sequence_length)`, *optional*): positions.
        """
        if position_ids is None:
            position_ids = torch.arange(input_ids.size(1)).unsqueeze(0).expand_as(input_ids)
        return self.words(input_ids) + self.positions(position_ids)


def encode(docs, max_length):
    rows = []
    for doc in docs:
        ids = [1] + [len(w) % 90 + 5 for w in doc.split()][: max_length - 2] + [2]
        rows.append(ids + [0] * (max_length - len(ids)))
    return torch.tensor(rows)


def run():
    docs = [" ".join(["hello", "world"] * 30), "a short one"]
    return Embeddings(100, 32, 8)(encode(docs, 48))


if __name__ == "__main__":
    run()
'''


def test_rows_padded_to_48_reach_a_32_row_position_table():
    found = lint(ENCODER)
    assert [(f.code, f.line) for f in found] == [("GL011", 20)]
    assert "47" in found[0].message and "32 rows" in found[0].message
    with pytest.raises(IndexError, match="index out of range"):
        run(ENCODER)


@pytest.mark.parametrize("old, new", [
    ("rows.append(ids + [0] * (max_length - len(ids)))",
     "padded = ids + [0] * (max_length - len(ids))\n        rows.append(padded)"),
    ("rows.append(ids + [0] * (max_length - len(ids)))",
     "rows.append(ids + (max_length - len(ids)) * [0])"),
    ("rows.append(ids + [0] * (max_length - len(ids)))",
     "ids += [0] * (max_length - len(ids))\n        rows.append(ids)"),
    ("return Embeddings(100, 32, 8)(encode(docs, 48))",
     "batch = encode(docs, 48)\n    model = Embeddings(100, 32, 8)\n    return model(batch)"),
    ('docs = [" ".join(["hello", "world"] * 30), "a short one"]',
     "docs = [list(range(10, 70)), list(range(10, 20))]"),
])
def test_the_same_program_written_otherwise_keeps_the_finding(old, new):
    code = ENCODER.replace(old, new)
    if "range(10" in new:  # documents given as lists of ids
        code = code.replace("[len(w) % 90 + 5 for w in doc.split()]", "doc")
    assert code != ENCODER
    assert [f.code for f in lint(code)] == ["GL011"]
    with pytest.raises(IndexError):
        run(code)


def test_rows_padded_to_the_table_length_are_left_alone():
    fixed = ENCODER.replace("encode(docs, 48)", "encode(docs, 32)")
    assert lint(fixed) == []
    assert run(fixed).shape == (2, 32, 8)


def test_positions_the_caller_passes_are_not_the_default_ones():
    # the caller gives positions within the table: the `is None` branch does not run
    code = ENCODER.replace("return Embeddings(100, 32, 8)(encode(docs, 48))",
                           "ids = encode(docs, 48)\n"
                           "    return Embeddings(100, 32, 8)(ids, torch.zeros_like(ids))")
    assert lint(code) == []
    assert run(code).shape == (2, 48, 8)
