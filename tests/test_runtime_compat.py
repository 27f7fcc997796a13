"""Raise mode stops exactly what torch stops: valid calls of the kinds PyTorch's own tests make run
unchanged, rejected calls raise torch's own exception type with torch's message, warning-severity
findings are warnings at the user's line. Torch is the oracle in every test."""
import re
import sys
import warnings

import pytest

torch = pytest.importorskip("torch")

from gather_lint.runtime import GatherLintError, GatherLintWarning, checked, disable, enable  # noqa: E402

HERE = __file__
L = torch.long


def _raw(call):
    """(result, None) or (None, exception) from torch alone."""
    try:
        return call(), None
    except Exception as exc:  # noqa: BLE001
        return None, exc


def _same(a, b):
    if isinstance(a, torch.Tensor):
        return a.dtype == b.dtype and a.shape == b.shape and a.stride() == b.stride() and torch.equal(a, b)
    return a == b


# Valid calls of the kinds PyTorch's scatter/gather/index tests make. Each builds fresh tensors.
VALID = {
    "scatter index smaller than src": lambda: torch.zeros(4, 5).scatter_(0, torch.tensor([[0, 1], [2, 3]]), torch.ones(3, 6)),
    "scatter_add index smaller than src": lambda: torch.zeros(4, 5).scatter_add_(1, torch.tensor([[0], [4]]), torch.ones(2, 3)),
    "scatter_reduce smaller index": lambda: torch.zeros(4, 5).scatter_reduce(1, torch.tensor([[0], [4]]), torch.ones(2, 3), "sum"),
    "gather index smaller than input": lambda: torch.arange(20.).view(4, 5).gather(1, torch.tensor([[0], [4]])),
    "take_along_dim negative indices": lambda: torch.take_along_dim(torch.arange(12.).view(3, 4), torch.tensor([[-1, -4]]), 1),
    "take_along_dim flat": lambda: torch.take_along_dim(torch.arange(12.).view(3, 4), torch.tensor([11, 0])),
    "gather empty index": lambda: torch.randn(3, 4).gather(1, torch.zeros(3, 0, dtype=L)),
    "scatter empty index": lambda: torch.zeros(2, 2).scatter_(0, torch.tensor((), dtype=L), torch.ones(2, 2)),
    "index_select empty index": lambda: torch.randn(3, 4).index_select(0, torch.tensor([], dtype=L)),
    "index_add into empty tensor": lambda: torch.zeros(3, 0).index_add_(0, torch.tensor([5]), torch.zeros(1, 0)),
    "index_copy into empty tensor": lambda: torch.zeros(3, 0).index_copy_(0, torch.tensor([5]), torch.zeros(1, 0)),
    "index_fill into empty tensor": lambda: torch.zeros(3, 0).index_fill_(0, torch.tensor([5]), 1.0),
    "index_fill 0-d value tensor": lambda: torch.zeros(()).index_fill_(0, torch.tensor([0, 0]), torch.tensor(2.0)),
    "index_fill 0-d value 2-d": lambda: torch.zeros(3, 4).index_fill_(1, torch.tensor([1, 2]), torch.tensor(2.0)),
    "index_fill negative index": lambda: torch.zeros(3, 4).index_fill_(1, torch.tensor([-1]), 1.0),
    "gather 0-d": lambda: torch.tensor(3.).gather(0, torch.tensor(0)),
    "scatter 0-d": lambda: torch.tensor(3.).scatter(0, torch.tensor(0), torch.tensor(5.)),
    "index_select 0-d": lambda: torch.tensor(3.).index_select(0, torch.tensor([0])),
    "index_add 0-d": lambda: torch.zeros(()).index_add_(0, torch.tensor([0]), torch.tensor(2.0)),
    "index_copy 0-d": lambda: torch.zeros(()).index_copy_(0, torch.tensor([0]), torch.tensor(2.0)),
    "scatter value scalar": lambda: torch.zeros(3, 4).scatter(1, torch.tensor([[0], [1], [3]]), 7.0),
    "gather int32": lambda: torch.randn(3, 4).gather(1, torch.tensor([[3], [0], [1]], dtype=torch.int32)),
    "scatter_add int32": lambda: torch.zeros(3, 4).scatter_add(1, torch.tensor([[3], [0], [1]], dtype=torch.int32), torch.ones(3, 1)),
    "index_select int32": lambda: torch.randn(3, 4).index_select(1, torch.tensor([3, 0], dtype=torch.int32)),
    "index_add int32": lambda: torch.zeros(3, 4).index_add(1, torch.tensor([3, 0], dtype=torch.int32), torch.ones(3, 2)),
    "gather expanded index": lambda: torch.randn(4, 6).gather(0, torch.tensor([[1], [3]]).expand(2, 6)),
    "gather non-contiguous index": lambda: torch.randn(4, 6).gather(0, torch.randint(4, (6, 4)).t()),
    "gather non-contiguous input": lambda: torch.randn(6, 4).t().gather(1, torch.randint(6, (4, 2))),
    "scatter_ transposed self": lambda: torch.zeros(4, 3).t().scatter_(1, torch.tensor([[0], [3], [1]]), 1.0),
    "gather out=": lambda: torch.gather(torch.randn(3, 4), 1, torch.tensor([[0], [1], [3]]), out=torch.empty(3, 1)),
    "index_select out=": lambda: torch.index_select(torch.randn(3, 4), 1, torch.tensor([0, 3]), out=torch.empty(3, 2)),
    "take_along_dim out=": lambda: torch.take_along_dim(torch.randn(3, 4), torch.tensor([[0], [1], [3]]), 1, out=torch.empty(3, 1)),
    "scatter reduce=add": lambda: torch.zeros(3, 4).scatter_(1, torch.tensor([[0, 0], [1, 1], [3, 2]]), torch.ones(3, 2), reduce="add"),
    "scatter reduce=multiply scalar": lambda: torch.ones(3, 4).scatter_(1, torch.tensor([[0], [1], [3]]), 2.0, reduce="multiply"),
    "scatter_reduce amax include_self=False": lambda: torch.zeros(3, 4).scatter_reduce_(1, torch.tensor([[0, 0], [1, 1], [3, 2]]), torch.randn(3, 2), "amax", include_self=False),
    "scatter_reduce mean": lambda: torch.ones(3, 4).scatter_reduce(0, torch.tensor([[0, 1, 2, 0]]), torch.randn(1, 4), "mean"),
    "embedding": lambda: torch.nn.functional.embedding(torch.tensor([[0, 2], [1, 1]]), torch.randn(3, 2)),
    "embedding int32 ids": lambda: torch.nn.functional.embedding(torch.tensor([0, 2], dtype=torch.int32), torch.randn(3, 2)),
}


@pytest.mark.parametrize("name", sorted(VALID))
def test_valid_calls_are_never_stopped_and_unchanged(name):
    torch.manual_seed(0)
    raw, exc = _raw(VALID[name])
    assert exc is None, f"not a valid call for torch: {exc}"
    torch.manual_seed(0)
    with checked(), warnings.catch_warnings():
        warnings.simplefilter("ignore", GatherLintWarning)  # warning findings may be reported, never raised
        got = VALID[name]()
    assert _same(raw, got)


# Rejected calls: (call, code gather-lint gives, exception type torch raises). The type column is
# what torch 2.13 raises; the test checks it against torch before checking gather-lint against it.
REJECTED = {
    "gather value out of range": (lambda: torch.randn(3, 4).gather(1, torch.tensor([[4]] * 3)), "GL011", RuntimeError),
    "gather rank mismatch": (lambda: torch.randn(3, 4).gather(1, torch.tensor([0, 1])), "GL001", RuntimeError),
    "gather dim out of range": (lambda: torch.randn(3, 4).gather(2, torch.zeros(3, 1, dtype=L)), "GL002", IndexError),
    "gather index too large": (lambda: torch.randn(3, 4).gather(1, torch.zeros(5, 1, dtype=L)), "GL003", RuntimeError),
    "gather float index": (lambda: torch.randn(3, 4).gather(1, torch.zeros(3, 1)), "GL008", RuntimeError),
    "scatter_ value out of range": (lambda: torch.zeros(3, 4).scatter_(1, torch.tensor([[4]] * 3), 1.0), "GL011", RuntimeError),
    "scatter_add_ value negative": (lambda: torch.zeros(3, 4).scatter_add_(0, torch.tensor([[-1]]), torch.ones(1, 1)), "GL011", RuntimeError),
    "scatter_reduce out of range": (lambda: torch.zeros(3, 4).scatter_reduce(0, torch.tensor([[3]]), torch.ones(1, 1), "sum"), "GL011", RuntimeError),
    "index_select out of range": (lambda: torch.randn(3, 4).index_select(0, torch.tensor([3])), "GL011", IndexError),
    "index_select negative": (lambda: torch.randn(3, 4).index_select(1, torch.tensor([-1])), "GL011", RuntimeError),
    "index_select matrix index": (lambda: torch.randn(3, 4).index_select(0, torch.tensor([[0]])), "GL001", IndexError),
    "index_add_ out of range": (lambda: torch.zeros(3, 4).index_add_(0, torch.tensor([3]), torch.ones(1, 4)), "GL011", RuntimeError),
    "index_add_ source mismatch": (lambda: torch.zeros(3, 4).index_add_(0, torch.tensor([1]), torch.ones(2, 4)), "GL003", RuntimeError),
    "index_copy_ out of range": (lambda: torch.zeros(3, 4).index_copy_(0, torch.tensor([3]), torch.ones(1, 4)), "GL011", IndexError),
    "index_copy_ int32": (lambda: torch.zeros(3, 4).index_copy_(0, torch.tensor([1], dtype=torch.int32), torch.ones(1, 4)), "GL008", RuntimeError),
    "index_fill_ out of range": (lambda: torch.zeros(3, 4).index_fill_(0, torch.tensor([3]), 1.0), "GL011", IndexError),
    "index_fill_ below -size": (lambda: torch.zeros(3, 4).index_fill_(0, torch.tensor([-4]), 1.0), "GL011", IndexError),
    "take_along_dim flat negative": (lambda: torch.take_along_dim(torch.randn(3, 4), torch.tensor([-1])), "GL011", RuntimeError),
    "take_along_dim int32": (lambda: torch.take_along_dim(torch.randn(3, 4), torch.zeros(3, 1, dtype=torch.int32), 1), "GL008", RuntimeError),
    "take_along_dim not broadcastable": (lambda: torch.take_along_dim(torch.randn(3, 4), torch.zeros(2, 1, dtype=L), 1), "GL003", RuntimeError),
    "scatter rank mismatch": (lambda: torch.zeros(3, 4).scatter(1, torch.tensor([0]), torch.ones(1)), "GL001", RuntimeError),
    "scatter dim out of range": (lambda: torch.zeros(3, 4).scatter(-3, torch.zeros(1, 1, dtype=L), 1.0), "GL002", IndexError),
    "scatter index larger than src": (lambda: torch.zeros(3, 4).scatter_(1, torch.zeros(3, 2, dtype=L), torch.ones(3, 1)), "GL003", RuntimeError),
    "scatter_add float index": (lambda: torch.zeros(3, 4).scatter_add(1, torch.zeros(3, 1), torch.ones(3, 1)), "GL008", RuntimeError),
    "scatter_reduce index too large": (lambda: torch.zeros(3, 4).scatter_reduce(1, torch.zeros(4, 1, dtype=L), torch.ones(4, 1), "amax"), "GL003", RuntimeError),
    "index_select dim out of range": (lambda: torch.randn(3, 4).index_select(2, torch.tensor([0])), "GL002", IndexError),
    "index_add_ dim out of range": (lambda: torch.zeros(3, 4).index_add_(-3, torch.tensor([0]), torch.ones(1, 4)), "GL002", IndexError),
    "index_fill_ matrix index": (lambda: torch.zeros(3, 4).index_fill_(0, torch.tensor([[0, 1]]), 1.0), "GL001", RuntimeError),
    "index_copy_ source mismatch": (lambda: torch.zeros(3, 4).index_copy_(0, torch.tensor([1]), torch.ones(1, 5)), "GL003", RuntimeError),
    "take_along_dim rank mismatch": (lambda: torch.take_along_dim(torch.randn(3, 4), torch.zeros(3, dtype=L), 1), "GL001", RuntimeError),
    "take_along_dim dim out of range": (lambda: torch.take_along_dim(torch.randn(3, 4), torch.zeros(3, 1, dtype=L), 2), "GL002", IndexError),
    "embedding out of range": (lambda: torch.nn.functional.embedding(torch.tensor([3]), torch.randn(3, 2)), "GL011", IndexError),
    "embedding float ids": (lambda: torch.nn.functional.embedding(torch.tensor([1.0]), torch.randn(3, 2)), "GL008", RuntimeError),
}


@pytest.mark.parametrize("name", sorted(REJECTED))
def test_rejected_calls_raise_torchs_type_with_torchs_message(name):
    call, code, kind = REJECTED[name]
    _, torch_exc = _raw(call)
    assert type(torch_exc) is kind, f"the table is wrong: torch raises {type(torch_exc).__name__}: {torch_exc}"
    with checked(), warnings.catch_warnings():
        warnings.simplefilter("ignore", GatherLintWarning)
        with pytest.raises(kind, match=re.escape(str(torch_exc))) as info:  # written against torch, still passes
            call()
    err = info.value
    assert isinstance(err, GatherLintError) and err.code == code
    text = str(err)
    assert text.startswith(code) and text.rindex(str(torch_exc)) > text.index("[at ")  # explanation, then torch's


def test_in_place_rejected_call_leaves_the_tensor_untouched():
    target = torch.zeros(3, 4)
    index = torch.tensor([[0, 1, 2, 3], [0, 1, 2, 9]])  # torch's kernel writes row 0 before it meets the 9
    with checked(), pytest.raises(RuntimeError, match="index 9 is out of bounds"):
        target.scatter_(0, index.clamp(max=2)[:1].expand(2, 4).contiguous().masked_fill(index == 9, 9), 1.0)
    assert torch.equal(target, torch.zeros(3, 4))


def test_errors_are_raised_before_any_warning():
    # GL005 (warning) and GL011 (error) on one call: the error is raised and nothing is warned
    x = torch.randn(10, 8)
    with checked(), warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        with pytest.raises(GatherLintError, match="GL011"):
            x.gather(0, torch.tensor([[12]]))
    assert [w for w in caught if issubclass(w.category, GatherLintWarning)] == []


def test_warning_names_the_users_line_once_per_site_even_as_values_change():
    x = torch.randn(10, 8)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("default")
        with checked():
            for k in range(4):
                line = sys._getframe().f_lineno + 1
                torch.take_along_dim(x, torch.tensor([[-1 - k]]), 0)  # GL010, a different value each time
    ours = [w for w in caught if issubclass(w.category, GatherLintWarning)]
    assert len(ours) == 1 and ours[0].filename == HERE and ours[0].lineno == line


def test_warnings_filter_decides_the_rest():
    x, idx = torch.randn(10, 8), torch.zeros(3, 1, dtype=L)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        with checked("warn"):
            for _ in range(3):
                x.gather(0, idx)
    assert len(caught) == 3
    with warnings.catch_warnings():
        warnings.simplefilter("error", GatherLintWarning)
        with checked(), pytest.raises(GatherLintWarning, match="GL005"):
            x.gather(0, idx)


def test_environment_mode_and_an_inner_mode_check_a_call_once():
    x, idx = torch.randn(10, 8), torch.zeros(3, 1, dtype=L)
    enable("warn")  # what GATHER_LINT_RUNTIME=warn does at import
    try:
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            with checked("warn"):  # what the pytest option adds per test
                x.gather(0, idx)
        assert len([w for w in caught if issubclass(w.category, GatherLintWarning)]) == 1
        with checked(), pytest.raises(GatherLintError):  # the inner mode's action wins
            x.gather(0, torch.tensor([[12]]))
    finally:
        disable()


def test_gl003_ignores_index_fill_value_and_gl011_empty_targets():
    from gather_lint.runtime import checker, targets

    fill = targets.TARGETS[torch.Tensor.index_fill_][0]
    assert checker.check_call(fill, (torch.zeros(()), 0, torch.tensor([0, 0]), torch.tensor(2.0)), {}, "sync") == []
    add = targets.TARGETS[torch.Tensor.index_add_][0]
    assert checker.check_call(add, (torch.zeros(3, 0), 0, torch.tensor([5]), torch.zeros(1, 0)), {}, "sync") == []


def test_torch_accepted_error_finding_becomes_a_warning():
    # an index on the meta device: torch runs it (garbage values), GL012 is an error finding, not a stop
    x = torch.randn(3, 4)
    idx = torch.tensor([[0], [1], [2]]).to("meta")
    assert _raw(lambda: torch.gather(x, 1, idx))[1] is None
    with checked(), pytest.warns(GatherLintWarning, match="GL012"):
        torch.gather(x, 1, idx)


def test_traceback_ends_at_the_users_line():
    import traceback

    with checked(), pytest.raises(IndexError) as info:
        line = sys._getframe().f_lineno + 1
        torch.randn(3, 4).index_select(0, torch.tensor([5]))
    last = traceback.extract_tb(info.value.__traceback__)[-1]
    assert (last.filename, last.lineno) == (HERE, line)


def test_rejected_embedding_with_max_norm_leaves_the_weight_untouched():
    weight = torch.randn(3, 2) * 10
    before = weight.clone()
    copy = weight.clone()
    _, torch_exc = _raw(lambda: torch.nn.functional.embedding(torch.tensor([0, 3]), copy, max_norm=1.0))
    assert not torch.equal(copy, before)  # torch alone renormalises row 0 before it fails
    with checked(), pytest.raises(IndexError, match=re.escape(str(torch_exc))):
        torch.nn.functional.embedding(torch.tensor([0, 3]), weight, max_norm=1.0)
    assert torch.equal(weight, before)
