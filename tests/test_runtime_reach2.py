"""Runtime checks for write-backs through repeated indices (GL013), beyond the scatter family.

Each test runs the buggy form in plain torch to show the silent wrong result, then the runtime
report, then the correct form running silent under the same checks.
"""
import warnings

import pytest

torch = pytest.importorskip("torch")

from gather_lint.runtime import GatherLintWarning, checked  # noqa: E402

from .runtime_checks import silent  # noqa: E402


def test_indexed_increment_whose_right_side_indexes_other_tensors_gl013():
    idx, mask = torch.tensor([0, 2, 0, 1]), torch.tensor([True, True, False, True, True])
    w = torch.tensor([1.0, 2.0, 9.0, 3.0, 4.0])
    flat = torch.zeros(3)
    flat[idx] += w[mask]
    assert flat.sum() < w[mask].sum()  # torch: the first weight for position 0 is lost
    with checked(), pytest.warns(GatherLintWarning, match=r"GL013 .*`x\[index\] \+= \.\.\.`"):
        flat = torch.zeros(3)
        flat[idx] += w[mask]  # w[mask] is read between the read of flat[idx] and its write
    good = silent(lambda: torch.zeros(3).index_put_((idx,), w[mask], accumulate=True))
    assert good.sum() == w[mask].sum()


def test_assignment_of_different_values_to_repeated_positions_of_zeros_gl013():
    rows, cols, depth = torch.tensor([1, 1, 0]), torch.tensor([2, 2, 0]), torch.tensor([5.0, 3.0, 7.0])
    image = torch.zeros(2, 3)
    image[rows, cols] = depth
    assert image.sum() < depth.sum()  # torch: one of the two depths for (1, 2) is lost
    with checked(), pytest.warns(GatherLintWarning, match=r"GL013 .*position \(1, 2\) is written 2 times"):
        image = torch.zeros(2, 3)
        image[rows, cols] = depth
    good = silent(lambda: torch.zeros(2, 3).index_put_((rows, cols), depth, accumulate=True))
    assert good.sum() == depth.sum()


def test_assignments_where_nothing_is_lost_are_left_alone_gl013():
    ids = torch.tensor([4, 1, 4])

    def run():
        a = torch.zeros(6)
        a[ids] = torch.ones(3)  # one value per repeated position: a mask
        b = torch.zeros(6)
        b[torch.tensor([0, 1, 2])] = torch.tensor([1.0, 2.0, 3.0])  # no repeats
        c = torch.ones(6)
        c[ids] = torch.tensor([3.0, 2.0, 3.0])  # position 4 gets 3.0 twice: nothing is lost
        d = torch.zeros(6, dtype=torch.bool)
        d[ids] = torch.tensor([True, False, True])  # a bool mask
        e = torch.zeros(3, 4)
        e[ids - 3, :2] = torch.ones(3, 2)  # a slice in the key: same value per position anyway
        return a, b, c, d, e

    a, _, c, _, _ = silent(run)
    assert a.tolist() == [0, 1, 0, 0, 1, 0] and c[4] == 3.0


def test_index_copy_back_of_rows_read_with_repeated_ids_gl013():
    centers, labels = torch.zeros(3, 2), torch.tensor([0, 1, 0, 2])
    feats = torch.tensor([[1.0, 1.0], [2.0, 2.0], [3.0, 3.0], [4.0, 4.0]])
    moved = centers.clone()
    batch = moved.index_select(0, labels)
    moved.index_copy_(0, labels, batch + 0.5 * (feats - batch))
    assert moved[0].tolist() == [1.5, 1.5]  # torch: only the last update of class 0 survives (2.0 meant)
    with checked(), pytest.warns(GatherLintWarning, match=r"GL013 .*index_select\(0, index\).*row 0 is written 2 times"):
        moved = centers.clone()
        batch = moved.index_select(0, labels)
        moved.index_copy_(0, labels, batch + 0.5 * (feats - batch))

    def fixed():
        out = centers.clone()
        out.index_add_(0, labels, 0.5 * (feats - out.index_select(0, labels)))
        return out

    assert silent(fixed)[0].tolist() == [2.0, 2.0]


def test_index_copy_without_a_read_or_repeats_is_left_alone_gl013():
    def run():
        x = torch.randn(4, 2)
        x.index_copy_(0, torch.tensor([0, 0]), torch.ones(2, 2))  # no read of those rows, and one value per row
        y = torch.randn(4, 2)
        ids = torch.tensor([3, 1])
        y.index_copy_(0, ids, y.index_select(0, ids) * 2)  # no repeats
        z = torch.randn(4, 2)
        same = torch.tensor([2, 2])
        z.index_copy_(0, same, z.index_select(0, same))  # repeats, but one value per row
        return y

    silent(run)


def test_empty_float_index_rejected_by_index_select_gl008():
    scores = torch.randn(3, 2)
    kept = torch.tensor([])  # an empty filter result: float32
    with pytest.raises(RuntimeError, match="Expected dtype int32 or int64"):
        scores.index_select(0, kept)
    with checked(), pytest.raises(RuntimeError, match=r"GL008 .*float32(.|\n)*Expected dtype int32 or int64"):
        scores.index_select(0, kept)
    with pytest.warns(GatherLintWarning, match="GL008"), pytest.raises(RuntimeError), checked("warn"):
        torch.index_select(scores, 0, kept)  # warn mode reports, torch raises its own error
    assert silent(lambda: scores.index_select(0, torch.tensor([], dtype=torch.long))).shape == (0, 2)
    silent(lambda: scores.gather(0, torch.empty(0, 2)))  # gather skips every check for an empty index


def test_gathered_column_against_a_wider_loss_target_gl006():
    F = torch.nn.functional
    q, act, target = torch.randn(8, 4), torch.randint(4, (8,)), torch.randn(8, 4)
    with pytest.warns(UserWarning, match="different to the input size"):
        assert F.mse_loss(q.gather(1, act.unsqueeze(1)), target).shape == ()  # torch: averaged over [8, 4]
    with checked(), pytest.warns(GatherLintWarning, match=r"GL006 .*\[8, 1\] .*`target` \[8, 4\] in mse_loss"):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", UserWarning)
            warnings.simplefilter("always", GatherLintWarning)
            F.mse_loss(q.gather(1, act.unsqueeze(1)), target)
    silent(lambda: F.mse_loss(q.gather(1, act.unsqueeze(1)), target.sum(1, keepdim=True)))


def test_index_put_of_different_values_to_repeated_positions_of_zeros_gl013():
    cells, mass = torch.tensor([3, 1, 3]), torch.tensor([0.5, 0.25, 2.0])
    rho = torch.zeros(4).index_put_((cells,), mass)
    assert rho.sum() < mass.sum()  # torch: one of the two masses in cell 3 is lost
    with checked(), pytest.warns(GatherLintWarning, match=r"GL013 .*index_put_\(\(index,\), v\).*position 3 is written 2"):
        torch.zeros(4).index_put_((cells,), mass)
    assert silent(lambda: torch.zeros(4).index_put_((cells,), mass, accumulate=True)).sum() == mass.sum()
    silent(lambda: torch.zeros(4).index_put_((cells,), torch.ones(3)))  # one value per position: a mask
    silent(lambda: torch.zeros(4).index_put((torch.tensor([0, 1, 2]),), mass))  # no repeats
