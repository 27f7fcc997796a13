"""index_put_((k1, k2), v) indexes as x[k1, k2] = v does: its keys get the subscript's dtype checks (GL008).
Each claim is run in torch."""
import textwrap

import pytest

from .conftest import lint

PROGRAM = '''
import torch

def hist():
    counts = torch.zeros(6)
    labels = torch.randint(0, 6, (768,), dtype={DTYPE})
    counts.index_put_((labels,), torch.ones(768), accumulate=True)
    return counts
'''


def _codes(dtype: str):
    return [(f.code, f.line) for f in lint(textwrap.dedent(PROGRAM.replace("{DTYPE}", dtype)))]


def test_a_uint8_key_of_another_size_is_read_as_a_mask_and_raises(torch):
    assert _codes("torch.uint8") == [("GL008", 7)]
    with pytest.raises(IndexError, match="shape of the mask"):
        torch.zeros(6).index_put_((torch.randint(0, 6, (768,), dtype=torch.uint8),), torch.ones(768), accumulate=True)


def test_an_int64_key_is_silent(torch):
    assert _codes("torch.int64") == []
    counts = torch.zeros(6).index_put_((torch.randint(0, 6, (768,)),), torch.ones(768), accumulate=True)
    assert counts.sum().item() == 768
