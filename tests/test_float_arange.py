"""`torch.arange(n)` of a Python float (`numel() / srclen`, a true division of two ints) steps in float32, and
`.to(x.device)` moves a tensor without changing its dtype: positions made that way are float wherever they go.
Each claim runs in torch."""
import pytest

from .conftest import lint
from .snippets import call_run as run

torch = pytest.importorskip("torch")

REORDER = '''
import torch

def reorder(encoder_out, new_order):
    return encoder_out.index_select(0, new_order)

def expand(src_tokens, encoder_out, beam_size):
    src_len = src_tokens.size(1)
    bsz = src_tokens.numel() / src_len
    new_order = torch.arange(bsz).view(-1, 1).repeat(1, beam_size).view(-1)
    new_order = new_order.to(src_tokens.device)
    return reorder(encoder_out, new_order)

def run():
    src_tokens = torch.randint(2, 50, (2, 5))
    return expand(src_tokens, torch.randn(2, 5, 8), 3)
'''


def test_positions_of_a_float_count_raise_in_index_select():
    found = lint(REORDER)
    assert [(f.code, f.line) for f in found] == [("GL008", 5)]
    assert "float32" in found[0].message
    with pytest.raises(RuntimeError, match="index_select"):
        run(REORDER)


@pytest.mark.parametrize("fixed", [
    "src_tokens.numel() // src_len",
    "src_tokens.size(0)",
    "int(src_tokens.numel() / src_len)",
])
def test_an_int_count_is_left_alone(fixed):
    code = REORDER.replace("src_tokens.numel() / src_len", fixed)
    assert lint(code) == []
    out = run(code)
    assert out.shape == (6, 5, 8)


def test_to_a_device_keeps_the_dtype_that_a_dtype_argument_changes():
    code = '''
import torch

def run(table, ids, like):
    return table.index_select(0, ids.float().to(like.device))
'''
    assert [f.code for f in lint(code)] == ["GL008"]
    assert lint(code.replace("like.device", "like.dtype")) == []  # the dtype of `like`: not known here
    table, like = torch.randn(4, 2), torch.zeros(1, dtype=torch.long)
    with pytest.raises(RuntimeError, match="index_select"):
        table.index_select(0, torch.tensor([1, 2]).float().to(like.device))
    assert table.index_select(0, torch.tensor([1, 2]).float().to(like.dtype)).shape == (2, 2)
