"""The fast path for the common positional call (runtime/fast_path.py): its verdict cache is keyed by
op, shapes, dtypes, devices and dim, and a cache hit still checks the index values every call."""
import warnings

import pytest

torch = pytest.importorskip("torch")

from gather_lint.runtime import GatherLintError, GatherLintWarning, checked, checker, device_records, fast_path  # noqa: E402

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


# --- embedding and tensor-key reads: the fast path's verdict equals the full checks' -------------

def _verdicts(fn, cases):
    """What checked() reports for each case: ('error', code) / ('warn', codes) / ('clean',)."""
    out = []
    for case in cases:
        with warnings.catch_warnings(record=True) as seen:
            warnings.simplefilter("always")
            try:
                with checked():
                    fn(*case)
            except GatherLintError as exc:
                out.append(("error", exc.code))
                continue
            except (IndexError, RuntimeError) as exc:
                out.append(("torch", type(exc).__name__))
                continue
        codes = sorted({str(w.message).split()[0] for w in seen if issubclass(w.category, GatherLintWarning)})
        out.append(("warn", tuple(codes)) if codes else ("clean",))
    return out


def _without_fast_path(monkeypatch, name):
    monkeypatch.setattr(fast_path, name, lambda *a: False)


TABLE = torch.nn.Embedding(7, 3)
EMBEDDING_CASES = [(torch.tensor([0, 6]),), (torch.tensor([[1, 2], [3, 4]], dtype=torch.int32),), (torch.tensor([7]),),
                   (torch.tensor([-1, 2]),), (torch.tensor([], dtype=torch.long),), (torch.tensor([1.0]),),
                   (torch.tensor([1], dtype=torch.int16),), (torch.tensor(3),), (torch.tensor(7),),
                   (torch.tensor([2], device="meta"),)]


def test_embedding_fast_path_gives_the_full_checks_verdict(monkeypatch):
    fast = _verdicts(lambda ids: TABLE(ids), EMBEDDING_CASES)
    _without_fast_path(monkeypatch, "clean_embedding")
    assert fast == _verdicts(lambda ids: TABLE(ids), EMBEDDING_CASES)
    assert fast[0] == ("clean",) and fast[2] == ("error", "GL011") and fast[3] == ("error", "GL011")


def test_embedding_fast_path_leaves_results_unchanged():
    ids = torch.randint(7, (4, 5))
    with checked():
        out = TABLE(ids)
    assert torch.equal(out, TABLE(ids))


SUBSCRIPT_CASES = [(torch.arange(12.0).view(4, 3), torch.tensor([0, 3])), (torch.arange(4.0), torch.tensor([-4, -1])),
                   (torch.arange(4.0), torch.tensor([4])), (torch.arange(4.0), torch.tensor([-5])),
                   (torch.arange(4.0), torch.tensor([[1, 2]], dtype=torch.int32)), (torch.arange(4.0), torch.tensor(2)),
                   (torch.arange(4.0), torch.tensor([True, False, True, False])),
                   (torch.arange(4.0), torch.tensor([], dtype=torch.long)), (torch.arange(4.0), torch.tensor([1.0])),
                   (torch.tensor(5.0), torch.tensor([0])), (torch.arange(6.0).view(2, 3), (slice(None), torch.tensor([3])))]


def test_subscript_fast_path_gives_the_full_checks_verdict(monkeypatch):
    fast = _verdicts(lambda x, key: x[key], SUBSCRIPT_CASES)
    _without_fast_path(monkeypatch, "clean_subscript")
    assert fast == _verdicts(lambda x, key: x[key], SUBSCRIPT_CASES)
    assert fast[0] == ("clean",) and fast[2] == ("error", "GL011") and fast[3] == ("error", "GL011")


def test_subscript_fast_path_still_feeds_the_increment_check():
    with checked(), pytest.warns(GatherLintWarning, match="GL013"):
        counts, ids = torch.zeros(3), torch.tensor([0, 2, 0])
        counts[ids] += 1  # the read took the fast path; the write-back still sees it


# --- on an accelerator (emulated on CPU): the fast path queues the same device record ------------

def _ids(*values, dtype=torch.long):
    return lambda: torch.tensor(values, dtype=dtype)


DEVICE_CALLS = [  # (call, good index, index of the same signature): the third call may take the fast path
    (lambda i: X.gather(1, i.view(4, 1)), _ids(0, 9, 3, 1), _ids(0, 10, 3, 1)),
    (lambda i: torch.gather(X, 1, i.view(2, 2).expand(2, 2).repeat(2, 1)), _ids(0, 1, 2, 3), _ids(-1, 1, 2, 3)),
    (lambda i: X.index_select(0, i), _ids(3, 0), _ids(0, 4)),
    (lambda i: TABLE(i.view(1, 2)), _ids(6, 0), _ids(7, 0)),
    (lambda i: TABLE(i), _ids(1, dtype=torch.int16), _ids(1, dtype=torch.int16)),
    (lambda i: X.gather(1, i), lambda: X.topk(2, dim=1).indices, lambda: X.topk(2, dim=1).indices + 9),
]


def _device_verdicts():
    """Per case: two good calls (learn the signature, then the fast path) and one more: what is raised
    and what the pending device records say."""
    out = []
    for call, good, other in DEVICE_CALLS:
        fast_path.clear()
        try:
            with checked():
                call(good())
                call(good())
                call(other())
                out.append(("clean", device_records.explain_pending()))
        except (GatherLintError, IndexError, RuntimeError) as exc:
            out.append((type(exc).__name__, str(exc).splitlines()[0], getattr(exc, "__notes__", [])))
    return out


def test_device_fast_path_queues_what_the_generic_path_queues(monkeypatch):
    monkeypatch.setattr(checker, "_on_accelerator", lambda t: True)
    monkeypatch.setattr(torch.Tensor, "is_cpu", property(lambda t: False))
    fast = _device_verdicts()
    monkeypatch.setattr(fast_path, "clean_axis", lambda *a: None)
    monkeypatch.setattr(fast_path, "clean_embedding", lambda *a: False)
    assert fast == _device_verdicts()
    assert all("bad value" in v[2][0] for v in fast[:4] + fast[5:]), fast
    assert "GL008" in fast[4][1]


def test_meta_tensors_get_shape_checks_only_on_every_call():
    x, idx = torch.randn(4, 10, device="meta"), torch.zeros(4, 2, dtype=torch.long, device="meta")
    table, ids = torch.nn.Embedding(5, 3, device="meta"), torch.zeros(3, dtype=torch.long, device="meta")
    with checked():
        for _ in range(3):  # the first learns each signature, the later ones would take the fast path
            assert x.gather(1, idx).shape == (4, 2) and x.index_select(0, idx[:, 0]).shape == (4, 10)
            assert table(ids).shape == (3, 3)
        with pytest.raises(GatherLintError, match="GL001"):
            x.gather(1, idx[:, 0])
