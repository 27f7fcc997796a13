"""Runtime transparency on generated calls: valid calls give results, dtypes, strides and gradients
identical to raw torch; invalid calls raise GatherLintError before any in-place write."""
import os

import pytest

torch = pytest.importorskip("torch")
from hypothesis import HealthCheck, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

from gather_lint.runtime import GatherLintError, GatherLintWarning, checking  # noqa: E402

EXAMPLES = int(os.environ.get("GATHER_LINT_FUZZ_EXAMPLES", "100"))
COMMON = dict(max_examples=EXAMPLES, deadline=None, suppress_health_check=list(HealthCheck),
              derandomize="GATHER_LINT_FUZZ_EXAMPLES" not in os.environ)
shapes = st.lists(st.integers(1, 4), min_size=1, max_size=3).map(tuple)


def _valid_index(shape, dim, rng_seed):
    g = torch.Generator().manual_seed(rng_seed)
    axis = dim % len(shape)
    return torch.randint(shape[axis], shape, generator=g)


@settings(**COMMON)
@given(shapes, st.integers(-3, 2), st.integers(0, 2**16), st.sampled_from(["gather", "scatter_add", "scatter", "take_along_dim"]))
def test_valid_calls_are_unchanged(shape, dim, seed, op):
    dim = dim % len(shape) - (len(shape) if dim < 0 else 0)
    index = _valid_index(shape, dim, seed)
    x = torch.randn(shape, generator=torch.Generator().manual_seed(seed), requires_grad=True)
    src = torch.randn(shape, generator=torch.Generator().manual_seed(seed + 1), requires_grad=True)
    weight = torch.randn(shape, generator=torch.Generator().manual_seed(seed + 2))

    def call():
        if op == "gather":
            return x.gather(dim, index)
        if op == "take_along_dim":
            return torch.take_along_dim(x, index, dim=dim)
        return getattr(x, op)(dim, index, src)

    def run():
        x.grad = src.grad = None
        out = call()
        (out * weight).sum().backward()
        return out.detach(), x.grad.clone(), None if src.grad is None else src.grad.clone()

    raw = run()
    with checking():
        checked = run()
    assert raw[0].dtype == checked[0].dtype and raw[0].stride() == checked[0].stride()
    for a, b in zip(raw, checked):
        assert (a is None and b is None) or torch.equal(a, b)


@settings(**COMMON)
@given(shapes, st.integers(0, 2), st.integers(0, 2**16), st.sampled_from(["scatter_", "scatter_add_", "index_add_", "index_copy_", "index_fill_"]))
def test_invalid_in_place_calls_raise_before_writing(shape, dim, seed, op):
    dim = dim % len(shape)
    target = torch.zeros(shape)
    before = target.clone()
    g = torch.Generator().manual_seed(seed)
    if op.startswith("scatter"):
        index = torch.randint(shape[dim], shape, generator=g)
        index.view(-1)[-1] = shape[dim] + 3  # one value out of range, written last
        args = (dim, index, torch.ones(shape))
    else:
        n = shape[dim]
        index = torch.arange(n)
        index[-1] = n + 3
        source_shape = list(shape)
        args = (dim, index, 1.0) if op == "index_fill_" else (dim, index, torch.ones(source_shape))
    with checking(), pytest.raises(GatherLintError):
        getattr(target, op)(*args)
    assert torch.equal(target, before)


def test_torch_compile_shape_checks_are_traced_and_values_asserted():
    def f(x, idx):
        return x.gather(0, idx) * 2

    compiled = torch.compile(f, backend="eager")
    x = torch.randn(10, 8)
    good = torch.randint(10, (3, 8))
    with checking():
        assert torch.equal(compiled(x, good), f(x, good))
        with pytest.warns(GatherLintWarning, match="GL005"):
            compiled(x, torch.zeros(3, 1, dtype=torch.long))
        with pytest.raises(GatherLintError, match="GL003"):
            compiled(x, torch.zeros(3, 9, dtype=torch.long))
        with pytest.raises(RuntimeError, match="GL011"):
            compiled(x, torch.full((3, 8), 11))
