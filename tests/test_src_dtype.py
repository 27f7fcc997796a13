"""GL016: scatter/index ops that write a src of another dtype than self (torch raises)."""
import pytest

from .conftest import codes

SETUP = """
import torch
buf = torch.zeros(4, 6)
counts = torch.zeros(4, dtype=torch.long)
rows = torch.tensor([[0, 1, 3]])
ids = torch.tensor([0, 3, 3])
"""


@pytest.mark.parametrize("call, fires", [
    ("buf.scatter_(0, rows, torch.tensor([[1, 2, 3]]))", True),
    ("torch.scatter(buf, 0, rows, torch.ones(1, 3, dtype=torch.long))", True),
    ("buf.scatter_add(0, rows, torch.ones(1, 3).bool())", True),
    ("buf.scatter_reduce_(0, rows, torch.arange(3).view(1, 3), 'amax')", True),
    ("counts.index_add_(0, ids, torch.ones(3))", True),
    ("counts.index_copy(0, ids, torch.ones(3, dtype=torch.int32))", True),
    ("buf.scatter_(0, rows, 1)", False),  # a Python scalar is converted
    ("buf.scatter_(0, rows, value=2.0)", False),
    ("counts.index_fill_(0, ids, torch.tensor(1.0))", False),  # index_fill_ converts its value
    ("buf.scatter_(0, rows, torch.ones(1, 3, dtype=torch.float64))", True),  # a fresh torch.zeros is float32 for certain
    ("buf.scatter_(0, rows, torch.tensor([[1.0, 2.0, 3.0]]))", False),
    ("counts.index_add_(0, ids, torch.ones(3, dtype=torch.long))", False),
])
def test_src_dtype(call, fires, torch):
    code = SETUP + f"out = {call}\n"
    assert ("GL016" in codes(code)) == fires, call
    try:
        exec(code, {})
        raised = False
    except RuntimeError as exc:
        raised = "dtype" in str(exc) or "scalar type" in str(exc)
    if fires:
        assert raised, call  # torch agrees: it raises
    elif "float64" not in call:
        assert not raised, call


def test_unknown_dtypes_stay_silent():
    code = """
    import torch
    def f(buf, rows, src):
        return buf.scatter_(0, rows, src), torch.zeros(3, 5).scatter_add(0, rows, src.sum(-1))
    """
    assert codes(code) == []
