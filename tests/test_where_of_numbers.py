"""`torch.where(cond, a, b)` of two Python ints makes an int64 tensor whose values are a and b: a negative one
(signed labels {-1, +1}) is certainly among them. As an index, -1 reads the last entry silently (advanced
indexing) or raises (index_select, gather). Each claim runs in torch."""
import pytest

from .conftest import lint
from .snippets import call_run as run

torch = pytest.importorskip("torch")

SIGNED_ROWS = '''
import torch

def class_indicators(labels, num_classes: int):
    eye = torch.eye(num_classes)
    return eye[labels]

def run():
    torch.manual_seed(0)
    x = torch.randn(20, 3)
    y = torch.where(x[:, 0] > 0, 1, -1)
    return class_indicators(y, 2), y
'''

SIGNED_SELECT = '''
import torch

def run():
    torch.manual_seed(0)
    scores = torch.randn(12)
    signs = torch.where(scores > 0, 1, -1)
    table = torch.randn(2, 4)
    return table.index_select(0, signs)
'''


def test_signed_labels_as_rows_read_the_last_row_silently():
    found = lint(SIGNED_ROWS)
    assert [(f.code, f.line) for f in found] == [("GL010", 6)]
    assert "-1" in found[0].message and "last entry" in found[0].message
    rows, y = run(SIGNED_ROWS)
    assert (y == -1).any()
    # the rows of -1 labels are the indicator of class 1, the same as the +1 labels: class 0 never appears
    assert torch.equal(rows[:, 0], torch.zeros(len(y)))


def test_signed_values_raise_in_index_select():
    found = lint(SIGNED_SELECT)
    assert [(f.code, f.line) for f in found] == [("GL011", 9)]
    with pytest.raises(IndexError, match="out of range"):
        run(SIGNED_SELECT)


@pytest.mark.parametrize("fixed", [
    "torch.where(x[:, 0] > 0, 1, 0)",
    "(x[:, 0] > 0).long()",
    "torch.where(x[:, 0] > 0, 1, -1).clamp(min=0)",
])
def test_labels_of_positions_are_left_alone(fixed):
    code = SIGNED_ROWS.replace("torch.where(x[:, 0] > 0, 1, -1)", fixed)
    assert lint(code) == []
    rows, y = run(code)
    assert torch.equal(rows, torch.eye(2)[(x := y.clamp(min=0))]) and (x >= 0).all()


def test_signs_used_as_numbers_are_left_alone():
    code = '''
import torch

def run():
    x = torch.randn(5, 4)
    sign = torch.where(x > 0, 1, -1)
    return (x * sign).gather(1, torch.zeros(5, 1, dtype=torch.long))
'''
    assert lint(code) == []
    assert (run(code) >= 0).all()
