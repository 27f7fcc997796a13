"""Runtime GL013 for writes that give one position two or more different values in one call, into any
buffer: `x[idx] = v`, `x[i, j] = v`, `x.index_put_((idx,), v)`, `x.index_copy_(d, idx, src)` and
`x.scatter_(d, idx, src)`. Torch documents the result as undefined (one value survives, which one is
unspecified; on CUDA it changes from run to run). Each test runs the bug in plain torch to show a
value is lost, then the report, then the accumulating form and the same-value forms, silent.
"""
import re
import warnings

import pytest

torch = pytest.importorskip("torch")

from gather_lint.runtime import GatherLintWarning, checked  # noqa: E402

from .runtime_checks import silent  # noqa: E402


def reported(fn, pattern: str):
    """Run fn under warn-mode checks: exactly one GL013 matching pattern; fn's result, as torch computes it."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        with checked("warn"):
            result = fn()
    found = [w for w in caught if issubclass(w.category, GatherLintWarning)]
    assert len(found) == 1, [str(w.message) for w in found]
    assert "GL013" in str(found[0].message)
    assert re.search(pattern, str(found[0].message)), str(found[0].message)
    return result, found[0]


CELLS, MASS = torch.tensor([3, 1, 3]), torch.tensor([0.5, 0.25, 2.0])


def test_assignment_into_a_buffer_that_is_not_zeros():
    base = torch.full((5,), 10.0)

    def write():
        x = base.clone()
        x[CELLS] = MASS
        return x

    plain = write()
    assert plain[3].item() in (0.5, 2.0)  # torch: one of the two values for position 3, the other is lost
    result, warning = reported(write,
                               r"`x\[index\] = v` writes different values to one position \(position 3 is "
                               r"written 2 times, values 0.5 and 2 among them\)")
    assert torch.equal(result, plain)  # the checks leave torch's result as it is
    text = str(warning.message)
    assert "which one is unspecified" in text and "CUDA" in text and "dedupe the index" in text
    assert "`x.index_put_((index,), v, accumulate=True)`" in text
    assert warning.filename == __file__  # the user's line, not the runtime's
    good = silent(lambda: base.clone().index_put_((CELLS,), MASS, accumulate=True))
    assert good[3].item() == 12.5 and good.sum().item() == base.sum().item() + MASS.sum().item()


def test_assignment_of_one_value_per_position_is_silent():
    ids = torch.tensor([4, 1, 4])

    def run():
        a = torch.randn(6)
        a[ids] = torch.tensor([7.0, 2.0, 7.0])  # position 4 gets 7.0 twice
        a[ids] = 3.0  # a number: one value for every position
        a[ids] = torch.tensor(3.0)  # a 0-d tensor likewise
        mask = torch.zeros(6, dtype=torch.bool)
        mask[ids] = True  # marking twice
        rows = torch.randn(6, 3)
        rows[ids] = torch.tensor([1.0, 2.0, 3.0])  # one row broadcast to every written row
        rows[ids] = torch.tensor([[1.0, 2.0, 3.0], [0.0, 0.0, 0.0], [1.0, 2.0, 3.0]])  # equal rows at 4
        nan = torch.randn(6)
        nan[ids] = torch.tensor([float("nan"), 1.0, float("nan")])  # NaN twice: nothing differs
        b = torch.randn(6)
        b[torch.tensor([0, 1, 2])] = torch.tensor([1.0, 2.0, 3.0])  # no repeats
        return a, rows

    a, rows = silent(run)
    assert a[4].item() == 3.0 and rows[4].tolist() == [1.0, 2.0, 3.0]


def test_assignment_of_different_rows_to_a_repeated_row():
    x = torch.randn(4, 2)
    ids = torch.tensor([2, 0, 2])
    v = torch.tensor([[1.0, 1.0], [5.0, 5.0], [1.0, 9.0]])

    def write():
        y = x.clone()
        y[ids] = v
        return y

    plain = write()
    assert plain[2].tolist() in ([1.0, 1.0], [1.0, 9.0])
    result, _ = reported(write, r"position 2 is written 2 times\)")
    assert torch.equal(result, plain)


def test_tuple_of_index_tensors_positions_are_the_tuples():
    rows, cols, depth = torch.tensor([1, 1, 0, 1]), torch.tensor([2, 2, 0, 0]), torch.tensor([5.0, 3.0, 7.0, 4.0])

    def write():
        image = torch.ones(2, 3)
        image[rows, cols] = depth
        return image

    plain = write()
    assert plain[1, 2].item() in (5.0, 3.0)
    result, warning = reported(write,
                               r"`x\[i0, i1\] = v` .*position \(1, 2\) is written 2 times, values 5 and 3")
    assert torch.equal(result, plain)
    assert "`x.index_put_((i0, i1), v, accumulate=True)`" in str(warning.message)
    good = silent(lambda: torch.ones(2, 3).index_put_((rows, cols), depth, accumulate=True))
    assert good[1, 2].item() == 9.0

    def distinct_pairs():  # the rows repeat and the columns repeat, but no (row, column) pair does
        image = torch.ones(2, 3)
        image[torch.tensor([1, 1, 0]), torch.tensor([0, 2, 2])] = torch.tensor([1.0, 2.0, 3.0])

    silent(distinct_pairs)


def test_index_put_without_accumulate():
    x = torch.full((4,), -1.0)
    plain = x.clone().index_put_((CELLS,), MASS)
    assert plain[3].item() in (0.5, 2.0)
    result, warning = reported(lambda: x.clone().index_put_((CELLS,), MASS),
                               r"`x\.index_put_\(\(index,\), v\)` writes different values .*position 3 is written 2 times")
    assert torch.equal(result, plain)
    assert silent(lambda: x.clone().index_put_((CELLS,), MASS, accumulate=True))[3].item() == 1.5
    silent(lambda: x.clone().index_put_((CELLS,), torch.tensor([2.0, 0.25, 2.0])))  # one value for position 3
    silent(lambda: x.clone().index_put_((torch.tensor([0, 1, 2]),), MASS))  # no repeats


def test_index_copy_of_different_rows_to_a_repeated_index():
    x = torch.arange(8.0).view(4, 2)
    ids, src = torch.tensor([0, 2, 0]), torch.tensor([[1.0, 1.0], [2.0, 2.0], [3.0, 3.0]])
    plain = x.clone().index_copy_(0, ids, src)
    assert plain[0].tolist() in ([1.0, 1.0], [3.0, 3.0])
    result, warning = reported(lambda: x.clone().index_copy_(0, ids, src),
                               r"`x\.index_copy_\(0, index, source\)` writes different values .*row 0 is written 2 times")
    assert torch.equal(result, plain)
    assert "`x.index_add_(0, index, source)`" in str(warning.message)
    good = silent(lambda: torch.zeros(4, 2).index_add_(0, ids, src))
    assert good[0].tolist() == [4.0, 4.0]
    silent(lambda: x.clone().index_copy_(0, ids, torch.tensor([[1.0, 1.0], [2.0, 2.0], [1.0, 1.0]])))  # equal rows
    silent(lambda: x.clone().index_copy_(1, torch.tensor([1, 1]), torch.ones(4, 2)))  # along dim 1, equal columns
    silent(lambda: x.clone().index_copy_(0, torch.tensor([3, 1]), src[:2]))  # no repeats


def test_index_copy_along_a_later_dim():
    x = torch.zeros(2, 3)
    ids, src = torch.tensor([1, 1]), torch.tensor([[1.0, 2.0], [3.0, 3.0]])
    plain = x.clone().index_copy_(1, ids, src)
    assert plain[0, 1].item() in (1.0, 2.0)
    reported(lambda: x.clone().index_copy_(1, ids, src), r"index_copy_\(1, index, source\).*row 1 is written 2 times")


def test_scatter_into_any_buffer():
    ids, weights = torch.tensor([[5, 7, 5, 9]]), torch.tensor([[0.1, 0.2, 0.3, 0.4]])
    x = torch.full((1, 10), 2.0)
    plain = x.clone().scatter_(1, ids, weights)
    assert plain[0, 5].item() in (weights[0, 0].item(), weights[0, 2].item())
    result, warning = reported(lambda: x.clone().scatter_(1, ids, weights),
                               r"`x\.scatter_\(1, index, src\)` writes different values to one position \(index value 5 "
                               r"repeats along dim 1 with src values 0.1 and 0.3\)")
    assert torch.equal(result, plain)
    assert "`x.scatter_add_(1, index, src)`" in str(warning.message) and "scatter_reduce_" in str(warning.message)
    out_of_place, _ = reported(lambda: x.scatter(1, ids, weights), r"`x\.scatter\(1, index, src\)`.*`x\.scatter_add\(")
    assert torch.equal(out_of_place, plain)
    good = silent(lambda: x.clone().scatter_add_(1, ids, weights))
    assert good[0, 5].item() == pytest.approx(2.4)


def test_scatter_of_one_value_per_position_is_silent():
    ids = torch.tensor([[5, 7, 5, 9], [1, 1, 2, 3]])

    def run():
        x = torch.randn(2, 10)
        x.scatter_(1, ids, torch.ones(2, 4))  # equal values
        x.scatter_(1, ids, 1.0)  # a number
        x.scatter_(1, ids, torch.tensor([[3.0], [4.0]]).expand(2, 4))  # one value per row, expanded
        x.scatter_(1, ids, torch.tensor([[1.0, 2.0, 1.0, 3.0], [6.0, 6.0, 0.0, 1.0]]))  # repeats get equal values
        y = torch.randn(3, 2)
        y.scatter_(0, torch.tensor([[0, 0]]), torch.tensor([[1.0, 2.0]]))  # one write per column: (0, 0) and (0, 1)
        hits = torch.zeros(2, 10, dtype=torch.bool)
        hits.scatter_(1, ids, torch.tensor([[True, False, True, True], [True, True, False, False]]))  # a bool mask
        return x

    assert silent(run)[1, 1].item() == 6.0


def test_scatter_with_a_reduce_or_an_accumulating_op_is_silent():
    ids, src = torch.tensor([0, 0, 1]), torch.tensor([1.0, 2.0, 3.0])

    def run():
        a = torch.zeros(2).scatter_reduce(0, ids, src, "amax", include_self=False)
        b = torch.zeros(2).scatter_add_(0, ids, src)
        c = torch.zeros(2).index_add_(0, ids, src)
        return a, b, c

    a, b, c = silent(run)
    assert a.tolist() == [2.0, 3.0] and b.tolist() == c.tolist() == [3.0, 3.0]


def test_raise_mode_reports_and_lets_torch_write():
    x = torch.full((5,), 10.0)
    with checked(), pytest.warns(GatherLintWarning, match="GL013"):  # a warning-severity finding: never stopped
        x[CELLS] = MASS
    assert x[1].item() == 0.25 and x[3].item() in (0.5, 2.0)


def test_a_negative_index_names_the_same_position_as_its_positive_twin():
    def write():
        x = torch.ones(4)
        x[torch.tensor([-1, 3])] = torch.tensor([1.0, 2.0])
        return x

    assert write()[3].item() in (1.0, 2.0)
    reported(write, r"position 3 is written 2 times, values 1 and 2 among them")


def test_few_writes_into_a_large_grid_are_paired_by_sorting():
    rows, cols = torch.tensor([999, 5, 999]), torch.tensor([998, 5, 998])  # 10^6 positions, 3 writes

    def write():
        grid = torch.zeros(1000, 1000)
        grid[rows, cols] = torch.tensor([1.0, 2.0, 3.0])
        return grid

    assert write()[999, 998].item() in (1.0, 3.0)
    reported(write, r"position \(999, 998\) is written 2 times, values 1 and 3 among them")

    def distinct():
        grid = torch.zeros(1000, 1000)
        grid[rows, torch.tensor([998, 5, 997])] = torch.tensor([1.0, 2.0, 3.0])

    silent(distinct)


def test_an_out_of_range_index_put_is_left_to_torch():
    with warnings.catch_warnings(record=True) as caught, pytest.raises(IndexError, match="out of bounds"):
        warnings.simplefilter("always")
        with checked("warn"):
            torch.ones(4).index_put_((torch.tensor([3, 7, 3]),), torch.tensor([0.5, 0.25, 2.0]))
    assert not [w for w in caught if "GL013" in str(w.message)]


def test_scatter_of_each_members_position_picks_a_representative_silently():
    """`perm = inv.new_empty(k).scatter_(0, inv, arange(n))`: one member per cluster, whichever lands; every
    value written is a member of that cluster, so no choice torch makes is wrong."""
    cluster = torch.tensor([12, 10, 12, 11, 10, 12])
    unique, inv = torch.unique(cluster, sorted=True, return_inverse=True)
    perm = silent(lambda: inv.new_empty(unique.size(0)).scatter_(0, inv, torch.arange(inv.size(0))))
    assert torch.equal(inv[perm], torch.arange(unique.size(0)))  # each slot holds a member of its own cluster
    # the same repeats with values that are not the positions still lose one of them
    reported(lambda: inv.new_zeros(unique.size(0)).scatter_(0, inv, torch.arange(inv.size(0)) * 2 + 1),
             r"repeats along dim 0")


def test_flat_put_without_accumulate_gl013():
    """`frame.put_(flat, v)` writes the flattened frame: a repeated flat position keeps one value."""
    flat, v = torch.tensor([5, 2, 5, 9]), torch.tensor([1.0, 2.0, 4.0, 8.0])

    def write():
        return torch.zeros(3, 4).put_(flat, v)

    plain = write()
    assert plain.view(-1)[5].item() in (1.0, 4.0)  # torch: one of the two values for flat position 5
    result, warning = reported(write, r"`x\.put_\(index, v\)` writes different values to one position \(position 5")
    assert torch.equal(result, plain)
    assert "`x.put_(index, v, accumulate=True)`" in str(warning.message)
    assert warning.filename == __file__
    good = silent(lambda: torch.zeros(3, 4).put_(flat, v, accumulate=True))
    assert good.view(-1)[5].item() == 5.0
    silent(lambda: torch.zeros(3, 4).put_(torch.tensor([0, 7, 11]), torch.tensor([1.0, 2.0, 3.0])))
