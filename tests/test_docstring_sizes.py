"""Sizes documented as `name (int): ...` are dims, like an `int` annotation; a src of size 1 does not
stretch to a named index size."""
import textwrap

import pytest

from .conftest import codes

CODE = '''
import torch
def tally(bins, n_bins):
    """Histogram of bin ids.

    Args:
        bins (LongTensor): shape (M,), one id per item.
        n_bins ({kind}): number of bins.
    """
    hist = torch.zeros(n_bins)
    return hist.scatter_add_(0, bins, {src})
'''


@pytest.mark.parametrize("kind, src, expected", [
    ("int", "torch.ones(1)", ["GL003"]),
    ("`int`, optional", "torch.ones(1)", ["GL003"]),
    ("int", "torch.ones(bins.size(0))", []),
    ("int", "torch.ones_like(bins, dtype=torch.float)", []),
    ("float", "torch.ones(1)", []),  # not a size: the buffer's rank is unknown
])
def test_documented_int_sizes(kind, src, expected, torch):
    code = CODE.format(kind=kind, src=src)
    assert codes(code) == expected
    scope = {}
    exec(textwrap.dedent(code), scope)
    bins = torch.tensor([0, 2, 2, 1])
    if expected:
        with pytest.raises(RuntimeError, match="no larger size than src"):
            scope["tally"](bins, 3)
    elif kind == "int":
        assert scope["tally"](bins, 3).tolist() == [1.0, 1.0, 2.0]


def test_a_size_one_index_with_a_size_one_src_is_fine():
    code = """
    import torch
    def f(n_bins: int):
        hist = torch.zeros(n_bins)
        return hist.scatter_add_(0, torch.zeros(1, dtype=torch.long), torch.ones(1))
    """
    assert codes(code) == []
