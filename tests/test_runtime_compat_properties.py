"""Raise mode against torch on random calls of every family member, valid and invalid: index smaller
or larger than src on some dim, negative and out-of-range values, empty tensors, 0-d tensors, int32
and float indices. A call torch accepts is never stopped and gives the identical result (and leaves
identical in-place targets); a call torch rejects raises an instance of torch's exception type."""
import os
import warnings

import pytest

torch = pytest.importorskip("torch")
from hypothesis import HealthCheck, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

from gather_lint.runtime import GatherLintError, GatherLintWarning, checked  # noqa: E402

EXAMPLES = int(os.environ.get("GATHER_LINT_FUZZ_EXAMPLES", "150"))
COMMON = dict(max_examples=EXAMPLES, deadline=None, suppress_health_check=list(HealthCheck),
              derandomize="GATHER_LINT_FUZZ_EXAMPLES" not in os.environ)

OPS = ["gather", "take_along_dim", "take_along_dim_flat", "scatter", "scatter_value", "scatter_", "scatter_add",
       "scatter_add_", "scatter_reduce", "scatter_reduce_", "index_select", "index_add", "index_add_",
       "index_copy", "index_copy_", "index_fill", "index_fill_", "embedding"]
VECTOR_INDEX = {"index_select", "index_add", "index_add_", "index_copy", "index_copy_", "index_fill", "index_fill_"}

shape = st.lists(st.integers(0, 4), min_size=0, max_size=3).map(tuple)


@st.composite
def calls(draw):
    op = draw(st.sampled_from(OPS))
    inp_shape = draw(shape)
    rank = len(inp_shape)
    dim = draw(st.integers(-rank - 1, rank)) if rank else draw(st.sampled_from([0, -1, 0, 1]))
    if op in VECTOR_INDEX:
        index_shape = draw(st.sampled_from([(draw(st.integers(0, 4)),), (draw(st.integers(0, 3)),), (), (1, 2)]))
    elif op == "embedding":
        index_shape = draw(shape)
    else:  # same rank mostly; each dim the input's, smaller, larger, or 0
        index_shape = tuple(draw(st.sampled_from([n, max(n - 1, 0), n + 1, 1, 0, n, n])) for n in inp_shape)
        if draw(st.integers(0, 9)) == 0:
            index_shape = draw(shape)
    index_dtype = draw(st.sampled_from([torch.long] * 5 + [torch.int32, torch.float32]))
    lo = draw(st.integers(-6, 0))
    hi = draw(st.integers(0, 6))
    payload_shape = tuple(draw(st.sampled_from([n, n, n + 1, max(n - 1, 0)])) for n in index_shape)
    if op in ("index_add", "index_add_", "index_copy", "index_copy_"):
        axis = dim % rank if rank else 0
        payload_shape = list(inp_shape) if rank else []
        if rank:
            payload_shape[axis] = draw(st.sampled_from([max(1, len(index_shape) and index_shape[0]), 1, 2]))
        payload_shape = tuple(payload_shape)
    value_0d = draw(st.booleans())
    reduce = draw(st.sampled_from(["sum", "prod", "mean", "amax", "amin"]))
    include_self = draw(st.booleans())
    if draw(st.integers(0, 9)) < 6:  # mostly values inside the dim (negative too where torch wraps)
        n = _axis_size(op, inp_shape, dim)
        lo, hi = (-n if op in ("take_along_dim", "index_fill", "index_fill_") else 0), n - 1
        if hi < lo:
            lo, hi = 0, 0
    seed = draw(st.integers(0, 2**16))
    return op, inp_shape, dim, index_shape, index_dtype, lo, hi, payload_shape, value_0d, reduce, include_self, seed


def _axis_size(op, inp_shape, dim):
    if op == "embedding":
        return inp_shape[0] if inp_shape else 0
    if op == "take_along_dim_flat":
        n = 1
        for k in inp_shape:
            n *= k
        return n
    if not inp_shape:
        return 1
    return inp_shape[dim % len(inp_shape)] if -len(inp_shape) <= dim < len(inp_shape) else 1


def build(spec):
    """Fresh tensors and a call on them, the same every time for one spec."""
    op, inp_shape, dim, index_shape, index_dtype, lo, hi, payload_shape, value_0d, reduce, include_self, seed = spec
    g = torch.Generator().manual_seed(seed)
    x = torch.randn(inp_shape, generator=g)
    index = torch.randint(lo, hi + 1, index_shape, generator=g).to(index_dtype)
    src = torch.randn(payload_shape, generator=g)
    value = torch.tensor(2.5) if value_0d else 2.5
    F = torch.nn.functional
    table = {
        "gather": lambda: x.gather(dim, index),
        "take_along_dim": lambda: torch.take_along_dim(x, index, dim),
        "take_along_dim_flat": lambda: torch.take_along_dim(x, index),
        "scatter": lambda: torch.scatter(x, dim, index, src),
        "scatter_value": lambda: x.scatter(dim, index, value if not value_0d else 2.5),
        "scatter_": lambda: x.scatter_(dim, index, src),
        "scatter_add": lambda: x.scatter_add(dim, index, src),
        "scatter_add_": lambda: x.scatter_add_(dim, index, src),
        "scatter_reduce": lambda: x.scatter_reduce(dim, index, src, reduce, include_self=include_self),
        "scatter_reduce_": lambda: x.scatter_reduce_(dim, index, src, reduce, include_self=include_self),
        "index_select": lambda: torch.index_select(x, dim, index),
        "index_add": lambda: x.index_add(dim, index, src, alpha=2),
        "index_add_": lambda: x.index_add_(dim, index, src),
        "index_copy": lambda: x.index_copy(dim, index, src),
        "index_copy_": lambda: x.index_copy_(dim, index, src),
        "index_fill": lambda: x.index_fill(dim, index, value),
        "index_fill_": lambda: x.index_fill_(dim, index, value),
        "embedding": lambda: F.embedding(index, x),
    }
    return x, table[op]


def outcome(spec, check):
    x, call = build(spec)
    try:
        if check:
            with checked(), warnings.catch_warnings(record=True) as caught:
                warnings.simplefilter("always", GatherLintWarning)
                result = call()
            STATS["warned"] += any(issubclass(w.category, GatherLintWarning) for w in caught)
        else:
            result = call()
        return ("ok", result, x), None
    except Exception as exc:  # noqa: BLE001
        return ("raised", None, x), exc


STATS = {"valid": 0, "rejected": 0, "warned": 0}


@settings(**COMMON)
@given(calls())
def test_raise_mode_agrees_with_torch(spec):
    (raw_kind, raw, raw_x), raw_exc = outcome(spec, check=False)
    (got_kind, got, got_x), got_exc = outcome(spec, check=True)
    if raw_exc is None:
        STATS["valid"] += 1
        assert got_exc is None, f"a call torch accepts was stopped: {got_exc}"
        assert got.dtype == raw.dtype and got.shape == raw.shape and got.stride() == raw.stride()
        assert torch.equal(got, raw) or (got.isnan() == raw.isnan()).all() and torch.equal(got.nan_to_num(), raw.nan_to_num())
    else:
        STATS["rejected"] += 1
        assert isinstance(got_exc, type(raw_exc)), f"torch raises {type(raw_exc).__name__}, checked {type(got_exc).__name__}: {got_exc}"
        if isinstance(got_exc, GatherLintError):
            assert str(raw_exc) in str(got_exc)  # torch's message after ours
            assert _equal(got_x, build(spec)[0])  # stopped before any write (torch itself may half-write)
            return
    assert _equal(got_x, raw_x)


def _equal(a, b):
    return torch.equal(a.nan_to_num(), b.nan_to_num())


def test_report_counts():
    # run last in this module: both outcomes were exercised (a generator that only made invalid calls proves little)
    if STATS["valid"] + STATS["rejected"] == 0:
        pytest.skip("run with the property test")
    print(f"\nrandom calls: {STATS['valid']} accepted by torch (none stopped; {STATS['warned']} warned), "
          f"{STATS['rejected']} rejected (each with torch's exception type)")
    assert STATS["valid"] >= 10 and STATS["rejected"] >= 10
