"""The contract against torch on generated calls: an `error` verdict means torch rejects the call,
and a call torch rejects for shape, rank, dim or dtype reasons gets an `error` verdict.

GATHER_LINT_FUZZ_EXAMPLES sets the number of generated calls per op (default 150; the long run
uses 10000: `GATHER_LINT_FUZZ_EXAMPLES=10000 python -m pytest tests/test_contract_vs_torch.py`).
"""
import os

import pytest

torch = pytest.importorskip("torch")
from hypothesis import HealthCheck, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

from gather_lint.contract import ERROR, Site, TensorInfo  # noqa: E402
from gather_lint.rules import check  # noqa: E402
from gather_lint.dims import Shape  # noqa: E402
from gather_lint.ops import OPS  # noqa: E402

EXAMPLES = int(os.environ.get("GATHER_LINT_FUZZ_EXAMPLES", "150"))
DTYPES = {"int64": torch.int64, "int32": torch.int32, "float32": torch.float32, "bool": torch.bool, "int16": torch.int16}

shapes = st.lists(st.integers(0, 3), min_size=0, max_size=4).map(tuple)


def info(t, role):
    return TensorInfo(Shape(tuple(t.shape)), str(t.dtype).replace("torch.", ""), None, role)


def make_index(shape, dtype, high):
    if dtype in ("float32", "bool"):
        return torch.zeros(shape, dtype=DTYPES[dtype])
    return torch.randint(0, max(high, 1), shape, dtype=DTYPES[dtype]) if high > 0 else torch.zeros(shape, dtype=DTYPES[dtype])


def valid_high(in_shape, dim):
    """Exclusive upper bound of valid index values along dim (1 when the dim itself is invalid)."""
    rank = len(in_shape)
    if not -max(rank, 1) <= dim < max(rank, 1) or not rank:
        return 1
    return in_shape[dim % rank]


def run_torch(fn):
    try:
        fn()
        return None
    except (RuntimeError, IndexError, TypeError, ValueError) as exc:
        return exc


def verdict(site):
    return [v for v in check(site) if v.severity == ERROR]


def value_error(exc):
    """Errors about index values (out of bounds), which shapes alone cannot predict."""
    text = str(exc)
    return "out of bounds" in text or "out of range" in text or "INDICES element" in text


# the CI profile is fixed (derandomized); a long run explores new examples each time
COMMON = dict(max_examples=EXAMPLES, deadline=None, suppress_health_check=list(HealthCheck),
              derandomize="GATHER_LINT_FUZZ_EXAMPLES" not in os.environ)


@settings(**COMMON)
@given(shapes, shapes, st.integers(-5, 4), st.sampled_from(sorted(DTYPES)), st.sampled_from(["gather", "scatter_add", "scatter", "scatter_reduce", "take_along_dim"]))
def test_gather_scatter_family(in_shape, idx_shape, dim, dtype, name):
    x = torch.randn(in_shape)
    index = make_index(idx_shape, dtype, valid_high(in_shape, dim))
    op = OPS[name]
    if name == "gather":
        call = lambda: torch.gather(x, dim, index)
        site = Site(op, info(x, "input"), info(index, "index"), dim)
    elif name == "take_along_dim":
        call = lambda: torch.take_along_dim(x, index, dim=dim)
        site = Site(op, info(x, "input"), info(index, "index"), dim)
    else:
        src = torch.randn(idx_shape)
        kwargs = {"reduce": "sum"} if name == "scatter_reduce" else {}
        call = lambda: getattr(torch, name)(x, dim, index, src, **kwargs)
        site = Site(op, info(x, "input"), info(index, "index"), dim, payload=info(src, "src"))
    errors = verdict(site)
    exc = run_torch(call)
    if errors:
        assert exc is not None, f"contract says {errors[0].code} but torch accepted: {errors[0].message}"
    elif exc is not None:
        assert value_error(exc) or _known_gap(name, x, index, dim), f"torch raised {exc!r} with no contract error"


def _known_gap(name, x, index, dim):
    """Rejections the contract leaves to torch's own message (documented, tested as such)."""
    if name == "take_along_dim" and (x.dim() == 0 or index.numel() == 0):
        return True  # 0-d input with a dim; empty index that cannot broadcast
    if name == "take_along_dim" and x.dim() and x.shape[dim % x.dim()] == 0:
        return True  # quirk: remainder by a size-0 dim (see test below)
    return False


def test_quirk_take_along_dim_on_an_empty_dim_divides_by_zero():
    with pytest.raises(RuntimeError, match="ZeroDivisionError"):
        torch.take_along_dim(torch.randn(0), torch.tensor([0]), dim=0)


def test_quirk_empty_gather_index_skips_even_the_dtype_check():
    assert torch.gather(torch.randn(3, 4), 1, torch.zeros(3, 0, dtype=torch.bool)).shape == (3, 0)
    site = Site(OPS["gather"], TensorInfo(Shape((3, 4))), TensorInfo(Shape((3, 0)), "bool"), 1)
    assert verdict(site) == []


@settings(**COMMON)
@given(shapes, shapes, shapes, st.integers(-3, 3), st.sampled_from(sorted(DTYPES)),
       st.sampled_from(["index_select", "index_add", "index_copy", "index_fill"]))
def test_index_family(in_shape, idx_shape, src_shape, dim, dtype, name):
    x = torch.randn(in_shape)
    index = make_index(idx_shape, dtype, valid_high(in_shape, dim))
    op = OPS[name]
    source = torch.randn(src_shape)
    if name == "index_select":
        call, payload = (lambda: torch.index_select(x, dim, index)), None
    elif name == "index_fill":
        call, payload = (lambda: x.clone().index_fill_(dim, index, 1.0)), None
    else:
        call, payload = (lambda: getattr(x.clone(), name + "_")(dim, index, source)), info(source, "source")
    site = Site(op, info(x, "input"), info(index, "index"), dim, payload=payload)
    errors = verdict(site)
    exc = run_torch(call)
    if errors:
        assert exc is not None, f"contract says {errors[0].code} but torch accepted: {errors[0].message}"
    elif exc is not None:
        mixed_scalar = payload is not None and (x.dim() == 0) != (source.dim() == 0)
        assert value_error(exc) or _index_gap(exc) or mixed_scalar, f"torch raised {exc!r} with no contract error"


def _index_gap(exc):
    """index-family rejections outside the contract's shape rules, left to torch's message."""
    text = str(exc)
    return "axis dim should be positive" in text or "Index to scalar can have only 1 value" in text
