"""A dtype written right after a docstring entry's shape (`finished: (batch,) bool`, `ids: [B] long`) is the
parameter's dtype; a choice (`bool or long`) is none."""
import pytest

from gather_lint.static.shape_text import parse_docstring

from .conftest import codes
from .snippets import call_run as run
from .test_masked_index_shapes import SCATTER

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


# test_masked_index_shapes's scatter, with the mask passed in and declared by a comment instead of made here
COMMENTED = SCATTER.replace(
    "edge_attr, scores):\n    # x: [N, D], edge_index: [2, E], edge_attr: [E, D], scores: [E]\n    keep = scores > 0.5\n",
    "edge_attr, keep):\n    # x: [N, D], edge_index: [2, E], edge_attr: [E, D], keep: [E] bool\n").replace(
    "aggregate(x, edge_index, edge_attr, scores)", "aggregate(x, edge_index, edge_attr, keep)")


def test_a_comment_s_dtype_word_makes_the_mask(torch):
    assert codes(COMMENTED) == ["GL009"]
    assert "keep: [E] bool" in COMMENTED and "keep = scores" not in COMMENTED.split("def run")[0]
    got, wanted, _ = run(COMMENTED)
    assert not torch.allclose(got, wanted)  # torch: the leading edges' features, silently


def test_the_code_s_dtype_wins_over_a_comment_s():
    """A comment calling a tensor `long` that the code made float leaves it float: the comment may be the
    author's intent, the code is what runs."""
    program = '''
import torch


def pick(x):
    # x: [B, T]
    idx = torch.arange(10) / 2
    # idx: [T] long
    return x.index_select(1, idx)
'''
    assert codes(program) == ["GL008"]
