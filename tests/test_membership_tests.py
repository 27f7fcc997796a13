"""`x in (a, b)` with every side known is decided: `src.dtype in (torch.float32, torch.float64)` of an int64 src is
False, so a segment-sum helper accumulates into float32 and `scatter_add_` of the int64 counts raises. Each claim
runs in torch."""
import pytest

from .conftest import lint
from .snippets import call_run as run

torch = pytest.importorskip("torch")

SEGMENT_SUM = '''
import torch

def segment_sum(src, index, num_segments):
    acc_dtype = src.dtype if src.dtype in (torch.float32, torch.float64) else torch.float32
    out = torch.zeros(num_segments, dtype=acc_dtype)
    return out.scatter_add_(0, index, src)

def run():
    batch = torch.tensor([0, 0, 1, 2, 2, 2])
    return segment_sum(torch.ones_like(batch), batch, 3)
'''


def test_an_int_source_into_the_float_accumulator_raises():
    found = lint(SEGMENT_SUM)
    assert [(f.code, f.line) for f in found] == [("GL016", 7)]
    with pytest.raises(RuntimeError, match="self.dtype to be equal to src.dtype"):
        run(SEGMENT_SUM)


@pytest.mark.parametrize("src", ["torch.ones(6)", "torch.ones(6, dtype=torch.float64)"])
def test_a_float_source_keeps_its_own_dtype(src):
    code = SEGMENT_SUM.replace("segment_sum(torch.ones_like(batch), batch, 3)", f"segment_sum({src}, batch, 3)")
    assert lint(code) == []
    assert run(code).tolist() == [2.0, 1.0, 3.0]


def test_the_cast_source_is_left_alone():
    fixed = SEGMENT_SUM.replace("out.scatter_add_(0, index, src)", "out.scatter_add_(0, index, src.to(acc_dtype))")
    assert lint(fixed) == []
    assert run(fixed).tolist() == [2.0, 1.0, 3.0]


def test_not_in_is_decided_too():
    code = SEGMENT_SUM.replace("src.dtype if src.dtype in (torch.float32, torch.float64) else torch.float32",
                               "torch.float32 if src.dtype not in (torch.float32, torch.float64) else src.dtype")
    assert [f.code for f in lint(code)] == ["GL016"]
    with pytest.raises(RuntimeError):
        run(code)
