"""A dtype written right after a docstring entry's shape (`finished: (batch,) bool`, `ids: [B] long`) is the
parameter's dtype; a choice (`bool or long`) is none."""
import pytest

from gather_lint.static.shape_text import parse_docstring

from .conftest import codes
from .snippets import call_run as run

STEP = '''
import torch


def write_active(cache, slot_ids, keys, finished):
    """cache: (slots, dim); slot_ids: (batch,); keys: (batch, dim); finished: (batch,) bool."""
    active = ~finished
    cache.index_copy_(0, slot_ids, keys[active])
    return cache


def run():
    return write_active(torch.zeros(6, 3), torch.tensor([5, 0, 3]), torch.randn(3, 3),
                        torch.tensor([False, True, False]))
'''


def test_a_mask_declared_bool_keeps_a_part_of_the_batch(torch):
    assert codes(STEP) == ["GL003"]  # every slot, the active keys only
    with pytest.raises(IndexError, match="Number of indices"):
        run(STEP)
    fixed = STEP.replace("index_copy_(0, slot_ids, keys[active])", "index_copy_(0, slot_ids[active], keys[active])")
    assert codes(fixed) == []
    assert run(fixed)[0].tolist() == [0.0, 0.0, 0.0]


@pytest.mark.parametrize("entry, dtype", [
    ("finished: (batch,) bool.", "bool"),
    ("finished: (batch,) `torch.bool` flags", "bool"),
    ("finished: [B] long", "int64"),
    ("finished: (B,) LongTensor of ids", "int64"),
    ("finished: (B,) bool or long", None),
    ("finished: (B,) float mask", None),
])
def test_the_word_after_the_shape(entry, dtype):
    assert parse_docstring(entry, ["finished"])["finished"][1] == dtype
    several = f"hidden: (B, H); {entry}"
    assert parse_docstring(several, ["hidden", "finished"])["finished"][1] == dtype
