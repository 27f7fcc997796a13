"""Runtime checks for silent mistakes that need real values or where a tensor came from.

Each test runs the buggy form in plain torch to show the silent wrong result, then shows the
runtime report, then the correct form running silent under the same checks.
"""
import warnings

import pytest

torch = pytest.importorskip("torch")
F = torch.nn.functional

from gather_lint.runtime import GatherLintError, GatherLintWarning, checked  # noqa: E402

from .runtime_checks import silent  # noqa: E402


def test_topk_indices_scattered_along_another_dim_gl004():
    probs = torch.randn(2, 16, 4).softmax(-1)
    bad = torch.zeros_like(probs).scatter_(1, probs.topk(1, dim=-1).indices, 1.0)
    assert not torch.equal(bad.sum(-1), torch.ones(2, 16))  # torch: silent, most tokens get no expert
    with checked(), pytest.warns(GatherLintWarning, match=r"GL004 .*topk over dim 2 .*along dim=1 \(size 16\)"):
        top = probs.topk(1, dim=-1).indices
        torch.zeros_like(probs).scatter_(1, top, 1.0)
    good = silent(lambda: torch.zeros_like(probs).scatter_(-1, probs.topk(1, dim=-1).indices, 1.0))
    assert torch.equal(good.sum(-1), torch.ones(2, 16))


def test_argmax_origin_survives_views_gl004():
    x = torch.randn(3, 9, 7)
    wrong = x.gather(1, x.argmax(dim=2).unsqueeze(-1).expand(-1, -1, 7))  # values in [0, 7) fit dim 1 (9)
    assert not torch.equal(wrong[..., 0], x.amax(2))
    with checked(), pytest.warns(GatherLintWarning, match="GL004"):
        best = x.argmax(dim=2)
        x.gather(1, best.unsqueeze(-1).expand(-1, -1, 7))
    good = silent(lambda: x.gather(2, x.argmax(dim=2).unsqueeze(-1)).squeeze(-1))
    assert torch.equal(good, x.amax(2))


def test_square_dims_are_left_alone_gl004():
    scores = torch.randn(2, 6, 6)
    silent(lambda: scores.gather(1, scores.argsort(dim=2)))  # a [6, 6] matrix: either dim may be meant


def test_origin_is_forgotten_with_the_tensor():
    from gather_lint.runtime import provenance

    with checked():
        for _ in range(100):
            torch.randn(4, 5).topk(2, dim=1)
        assert len(provenance.ORIGINS._facts) <= 1  # entries go with their tensors: nothing kept alive


@pytest.mark.parametrize("combine", [lambda g, t: g - t, lambda g, t: t * g, lambda g, t: F.smooth_l1_loss(g, t)])
def test_gathered_column_combined_with_a_vector_gl006(combine):
    q, act, target = torch.randn(6, 3), torch.randint(3, (6,)), torch.randn(6)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        assert combine(q.gather(1, act.unsqueeze(1)), target).numel() in (1, 36)  # torch: [6, 6], or a loss over it
    with checked(), pytest.warns(GatherLintWarning, match=r"GL006 .*\[6, 1\] keeps gather's singleton dim 1"):
        combine(q.gather(1, act.unsqueeze(1)), target)
    good = silent(lambda: combine(q.gather(1, act.unsqueeze(1)).squeeze(1), target))
    assert good.numel() in (1, 6)


def test_batch_of_one_and_matching_shapes_are_left_alone_gl006():
    q = torch.randn(1, 3)
    silent(lambda: q.gather(1, torch.tensor([[2]])) * torch.randn(1))  # [1, 1] * [1]: nothing grows
    q = torch.randn(4, 3)
    silent(lambda: q.gather(1, torch.zeros(4, 1, dtype=torch.long)) * torch.randn(4, 1))


def test_indexed_increment_with_repeated_pairs_gl013():
    target, pred = torch.tensor([0, 1, 1, 2, 1]), torch.tensor([0, 1, 1, 0, 1])
    cm = torch.zeros(3, 3)
    cm[target, pred] += 1
    assert cm.sum() == 3  # torch: 5 samples, 3 counted
    with checked(), pytest.warns(GatherLintWarning, match=r"GL013 .*`x\[index\] \+= \.\.\.`"):
        cm[target, pred] += 1
    ok = torch.zeros(3, 3)
    silent(lambda: ok.index_put_((target, pred), torch.ones(5), accumulate=True))
    assert ok.sum() == 5


def test_indexed_writes_without_repeats_or_arithmetic_are_left_alone_gl013():
    def run():
        x = torch.zeros(6)
        x[torch.tensor([0, 2, 4])] += 1  # no repeats
        x[torch.tensor([1, 1])] = torch.tensor([5.0, 5.0])  # plain assignment: no accumulation meant
        y = x[torch.tensor([3, 3])]
        x[torch.tensor([3, 3])] = y  # a different key object, and y unchanged
        mask = torch.zeros(6, dtype=torch.bool)
        mask[torch.tensor([2, 2])] |= True
        return x

    assert silent(run).tolist() == [1.0, 5.0, 1.0, 0.0, 1.0, 0.0]


def test_scatter_of_repeated_ids_into_zeros_gl013():
    ids = torch.tensor([[5, 7, 5, 9]])
    weights = torch.tensor([[0.1, 0.2, 0.3, 0.4]])
    out = torch.zeros(1, 10).scatter(1, ids, weights)
    assert out.sum() < weights.sum() - 0.05  # torch: one of the two weights for id 5 is lost
    with checked(), pytest.warns(GatherLintWarning, match="GL013 .*index value 5 repeats along dim 1"):
        torch.zeros(1, 10).scatter(1, ids, weights)
    good = silent(lambda: torch.zeros(1, 10).scatter_add(1, ids, weights))
    assert torch.allclose(good.sum(), weights.sum())
    silent(lambda: torch.zeros(1, 10).scatter(1, ids, torch.ones(1, 4)))  # equal values: nothing lost
    silent(lambda: torch.zeros(1, 10).scatter_(1, ids, 1.0))  # a one-hot mask


def test_scatter_reduce_mean_onto_zeros_gl014():
    seg, src = torch.tensor([0, 0, 1]), torch.tensor([2.0, 3.0, 4.0])
    assert torch.allclose(torch.zeros(2).scatter_reduce(0, seg, src, "mean"), torch.tensor([5 / 3, 2.0]))  # 0 counted
    with checked(), pytest.warns(GatherLintWarning, match="GL014"):
        torch.zeros(2).scatter_reduce(0, seg, src, "mean")
    good = silent(lambda: torch.zeros(2).scatter_reduce(0, seg, src, "mean", include_self=False))
    assert good.tolist() == [2.5, 4.0]


def test_scatter_reduce_amax_onto_zeros_only_when_the_zeros_win_gl014():
    seg = torch.tensor([0, 0, 1])
    silent(lambda: torch.zeros(2).scatter_reduce(0, seg, torch.tensor([2.0, 3.0, 4.0]), "amax"))  # zeros never win
    with checked(), pytest.warns(GatherLintWarning, match="GL014"):
        torch.zeros(2).scatter_reduce(0, seg, torch.tensor([-2.0, -3.0, 4.0]), "amax")


def test_out_of_range_advanced_index_names_the_coordinate_gl011():
    with pytest.raises(IndexError):
        torch.zeros(4, 3)[torch.tensor([1, 7])]
    with checked(), pytest.raises(GatherLintError, match=r"GL011 .*first bad value 7 at index\[1\]"):
        torch.zeros(4, 3)[torch.tensor([1, 7])]
    with checked(), pytest.raises(GatherLintError, match=r"GL011 .*dim=1 .*size 3"):
        torch.zeros(4, 3)[:, torch.tensor([[0, 3]])] = 1.0
    out = silent(lambda: torch.arange(12).view(4, 3)[torch.tensor([-1, 0]), 1:][..., torch.tensor([1])])
    assert out.tolist() == [[11], [2]]


def test_bool_masks_and_plain_keys_pass_through():
    x = torch.arange(6.0)
    out = silent(lambda: (x[x > 2], x[1:3], x[None, ..., 2], x[[0, 1]]))
    assert out[0].tolist() == [3.0, 4.0, 5.0] and out[3].tolist() == [0.0, 1.0]
