"""Integer arithmetic, comparisons, cumsum, bincount, clamp and cat of values the code wrote out are known entry
by entry (static/exact_values.py); their largest value bounds what they index (GL011). Each program runs in
torch: the reported ones raise, the silent ones run."""
import pytest

from .conftest import codes
from .snippets import call_run as run

torch = pytest.importorskip("torch")

GROUP_STARTS = """
import torch

def first_of_each_group(x, index, groups):
    count = torch.bincount(index, minlength=groups)
    starts = torch.cat([count.new_zeros(1), count.cumsum(0)[:-1]])
    return x.index_select(0, starts)

def run():
    x = torch.randn(7, 3)
    batch = torch.tensor([0, 0, 0, 1, 1, 2, 2])
    return first_of_each_group(x, batch, GROUPS)
"""


def test_the_start_of_a_trailing_empty_group_is_past_the_rows():
    code = GROUP_STARTS.replace("GROUPS", "4")  # group 3 holds no node: it starts at 7, past the 7 rows
    assert codes(code) == ["GL011"]
    with pytest.raises(IndexError, match="index out of range"):
        run(code)


def test_the_starts_of_groups_that_all_hold_nodes_are_silent():
    code = GROUP_STARTS.replace("GROUPS", "3")
    assert codes(code) == []
    assert run(code).shape == (3, 3)


@pytest.mark.parametrize("index, reported", [
    ("ids + 2", True),  # 4 + 2 = 6 of 6 rows
    ("ids + 1", False),
    ("ids * 2 - 3", True),  # 4 * 2 - 3 = 5, 1 * 2 - 3 < 0: not all non-negative, no bound: see below
    ("(ids * 3) % 6", False),
    ("ids.add(2)", True),
    ("ids.clamp(max=4) + 1", False),
    ("ids.clamp(min=2) + 2", True),
    ("torch.cumsum(ids, 0)", True),  # 1, 4, 8
    ("(ids > 2).long() * 5", False),
    ("(ids >= 3).long() + ids", False),  # 1, 4, 5
    ("(ids >= 3).long() * 2 + ids", True),  # 1, 5, 6
])
def test_values_worked_out_from_written_ids(index, reported):
    code = f"""
    import torch

    def run():
        table = torch.randn(6, 2)
        ids = torch.tensor([1, 3, 4])
        return table.index_select(0, {index})
    """
    found = codes(code)
    if "- 3" in index:
        # -1 is among the values: no bound is claimed (index_select raises on it for another reason)
        assert found == []
        with pytest.raises(IndexError):
            run(code)
        return
    assert found == (["GL011"] if reported else [])
    if reported:
        with pytest.raises(IndexError, match="index out of range"):
            run(code)
    else:
        assert run(code).shape == (3, 2)


def test_a_narrowing_cast_forgets_the_entries():
    # 300 as uint8 is 44: the entries are not carried through a cast that can wrap them
    code = """
    import torch

    def run():
        table = torch.randn(50, 2)
        ids = torch.tensor([300, 2])
        return table[ids.to(torch.uint8).long()]
    """
    assert codes(code) == []
    assert run(code).shape == (2, 2)


def test_parts_of_written_values_need_not_reach_their_bound_together():
    # each channel is below the bound of all three, but the first channel never holds the largest entry:
    # the flat id they combine into is no larger than the ids encoded
    code = """
    import torch

    def run():
        ids = torch.tensor([5, 300, 70000, 131300])
        rgb = torch.stack([(ids // 65536) % 256, (ids // 256) % 256, ids % 256], dim=-1)
        decoded = rgb[:, 0] * 65536 + rgb[:, 1] * 256 + rgb[:, 2]
        table = torch.arange(3 * 65536)
        return table[decoded]
    """
    assert codes(code) == []
    assert run(code).tolist() == [5, 300, 70000, 131300]


MEDIAN_OF_EACH_GROUP = """
import torch

def lower_median(x, index, groups):
    count = torch.bincount(index, minlength=groups)
    starts = torch.cat([count.new_zeros(1), count.cumsum(0)[:-1]])
    within = torch.floor(0.5 * (count - 1).clamp(min=0)).long()  # >= 0, its values unknown here
    return x.index_select(0, starts + within)

def run():
    x = torch.randn(7, 3)
    batch = torch.tensor([0, 0, 0, 1, 1, 2, 2])
    return lower_median(x, batch, GROUPS)
"""


def test_the_largest_known_start_plus_an_offset_at_least_0_is_past_the_rows():
    code = MEDIAN_OF_EACH_GROUP.replace("GROUPS", "4")
    assert codes(code) == ["GL011"]
    with pytest.raises(IndexError, match="index out of range"):
        run(code)


@pytest.mark.parametrize("offset", ["(count - 1).clamp(min=0)", "0.5 * (count - 1).clamp(min=0)"])
def test_a_clamp_at_0_and_a_positive_factor_keep_the_offset_at_least_0(offset):
    code = MEDIAN_OF_EACH_GROUP.replace("GROUPS", "4").replace("0.5 * (count - 1).clamp(min=0)", offset)
    assert codes(code) == ["GL011"]
    with pytest.raises(IndexError, match="index out of range"):
        run(code)


def test_starts_within_the_rows_plus_an_offset_of_unknown_sign_are_silent():
    code = MEDIAN_OF_EACH_GROUP.replace("GROUPS", "3")
    assert codes(code) == []
    assert run(code).shape == (3, 3)
    # an offset that may be below 0 (no clamp): the sum need not reach the largest start
    unclamped = MEDIAN_OF_EACH_GROUP.replace("GROUPS", "4").replace("(count - 1).clamp(min=0)", "(count - 2)")
    assert codes(unclamped) == []
