"""The fast path for the common positional call (runtime/fast_path.py): its verdict cache is keyed by
op, shapes, dtypes, devices and dim, and a cache hit still checks the index values every call."""
import warnings

import pytest

torch = pytest.importorskip("torch")

from gather_lint.runtime import GatherLintError, GatherLintWarning, checked, fast_path  # noqa: E402

X = torch.randn(4, 10)


def _prime(x=X):
    """Two clean calls: the first learns the signature, the second takes the fast path."""
    good = torch.zeros(4, 1, dtype=torch.long)
    x.gather(1, good)
    torch.gather(x, 1, good)


def test_clean_calls_are_cached_and_results_unchanged():
    idx = torch.randint(10, (4, 3))
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        with checked():
            for _ in range(3):
                out = X.gather(1, idx)
                sel = X.index_select(1, idx[0])
            assert any(v is not False for v in fast_path._CLEAN.values())
    assert torch.equal(out, X.gather(1, idx)) and out.stride() == X.gather(1, idx).stride()
    assert torch.equal(sel, X.index_select(1, idx[0]))


@pytest.mark.parametrize("spell", [lambda x, i: x.gather(1, i), lambda x, i: torch.gather(x, 1, i)])
def test_bad_value_after_a_cache_hit_is_caught(spell):
    with checked():
        _prime()
        spell(X, torch.zeros(4, 1, dtype=torch.long))  # a hit
        with pytest.raises(RuntimeError, match="GL011"):
            spell(X, torch.full((4, 1), 10))  # same signature, bad value


def test_index_select_bad_value_after_a_cache_hit_is_caught():
    with checked():
        for _ in range(3):
            X.index_select(1, torch.tensor([9]))
        with pytest.raises(RuntimeError, match="GL011"):
            X.index_select(1, torch.tensor([10]))


def test_changed_shape_gets_a_fresh_verdict():
    with checked():
        _prime()
        with pytest.raises(GatherLintError, match="GL003"):
            X.gather(1, torch.zeros(5, 1, dtype=torch.long))


def test_changed_dtype_gets_a_fresh_verdict():
    with checked():
        _prime()
        with pytest.raises(GatherLintError, match="GL008"):
            X.gather(1, torch.zeros(4, 1, dtype=torch.int16))


def test_changed_device_gets_a_fresh_verdict():
    with checked():
        _prime()
        with pytest.warns(GatherLintWarning, match="GL012"):
            X.gather(1, torch.zeros(4, 1, dtype=torch.long, device="meta"))


def test_changed_dim_gets_a_fresh_verdict():
    with checked():
        _prime()
        with pytest.raises(GatherLintError, match="GL011"):
            X.gather(0, torch.full((4, 1), 5))  # values fit dim 1 (10), not dim 0 (4)


def test_topk_indices_skip_the_value_check_until_written():
    scores = torch.randn(4, 10)
    with checked():
        top = scores.topk(3, dim=1).indices
        for _ in range(3):
            X.gather(1, top)  # bounded by topk over this dim: no value read needed
        top.add_(10)  # an in-place write: the origin no longer proves the bounds
        with pytest.raises(RuntimeError, match="GL011"):
            X.gather(1, top)


def test_topk_origin_on_another_dim_still_reports_gl004_after_a_hit():
    x = torch.randn(3, 9, 7)
    with checked():
        for _ in range(2):
            x.gather(1, torch.zeros(3, 9, 7, dtype=torch.long))  # the same signature, cached clean
        with pytest.warns(GatherLintWarning, match="GL004"):
            x.gather(1, x.argmax(dim=2).unsqueeze(-1).expand(-1, -1, 7))


def test_inference_mode_indices_are_value_checked():
    with torch.inference_mode(), checked():
        top = torch.randn(4, 10).topk(3, dim=1).indices
        X.gather(1, top)
        X.gather(1, top)
        top.add_(10)
        with pytest.raises(RuntimeError, match="GL011"):
            X.gather(1, top)
