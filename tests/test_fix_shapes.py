"""GL001's and GL005's fixes over generated shapes and dims, run in torch: whenever a fix is offered,
the fixed call returns the reading the rule page names for that shape (a pick per position, or whole
rows), and no fix is offered where both readings fit."""
import itertools
import os

import pytest

pytest.importorskip("torch")

from hypothesis import HealthCheck, event, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

from gather_lint import fixes  # noqa: E402

from .conftest import lint  # noqa: E402

EXAMPLES = int(os.environ.get("GATHER_LINT_FUZZ_EXAMPLES", "60"))
COMMON = dict(max_examples=EXAMPLES, deadline=None, suppress_health_check=[HealthCheck.too_slow],
              derandomize="GATHER_LINT_FUZZ_EXAMPLES" not in os.environ)


def per_position(x, idx, axis):
    """out[p] = x[p with idx[p] put in at axis], for every position p of idx."""
    import torch

    out = torch.empty(idx.shape)
    for p in itertools.product(*map(range, idx.shape)):
        out[p] = x[p[:axis] + (int(idx[p]),) + p[axis:]]
    return out


def same_rank(x, idx, axis):
    """out[p] = x[p with p[axis] replaced by idx[p]]: gather's definition, by a plain loop."""
    import torch

    out = torch.empty(idx.shape)
    for p in itertools.product(*map(range, idx.shape)):
        out[p] = x[p[:axis] + (int(idx[p]),) + p[axis + 1:]]
    return out


def rows(x, idx, axis):
    """Whole trailing rows: out[..., k, :] = x[..., idx[..., k], :] (axis is the second-to-last dim)."""
    import torch

    out = torch.empty(tuple(idx.shape) + (x.shape[-1],))
    for p in itertools.product(*map(range, idx.shape)):
        out[p] = x[p[:axis] + (int(idx[p]),)]
    return out


def call_text(op: str, dim: int) -> str:
    if op == "gather":
        return f"x.gather({dim}, idx)"
    return f"torch.take_along_dim(x, idx, dim={dim})"


@settings(**COMMON)
@given(data=st.data(), rank=st.integers(2, 3), op=st.sampled_from(["gather", "take_along_dim"]),
       negative=st.booleans())
def test_gl001_fix_reads_what_the_shapes_say(data, rank, op, negative):
    import torch

    shape = [data.draw(st.integers(2, 4)) for _ in range(rank)]
    axis = data.draw(st.integers(0, rank - 1))
    others = shape[:axis] + shape[axis + 1:]
    # an index one dim short: either matching the other dims, or the leading dims and then any length
    idx_shape = data.draw(st.sampled_from([others, shape[:axis] + [data.draw(st.integers(1, 5))]]))[:rank - 1]
    idx_shape = idx_shape + [data.draw(st.integers(1, 4)) for _ in range(rank - 1 - len(idx_shape))]
    dim = axis - rank if negative else axis
    source = (f"import torch\nx = torch.randn({', '.join(map(str, shape))})\n"
              f"idx = torch.randint({shape[axis]}, ({', '.join(map(str, idx_shape))},))\n"
              f"out = {call_text(op, dim)}\n")
    found = [f for f in lint(source) if f.code == "GL001"]
    assert found, source
    fits_per_position = idx_shape == others
    fits_rows = axis == rank - 2 and idx_shape[:axis] == shape[:axis]
    event(f"fix offered: {found[0].fix is not None}, per position: {fits_per_position}, rows: {fits_rows}")
    if found[0].fix is None:
        assert fits_per_position == fits_rows, f"a fix should be offered:\n{source}"
        return
    assert fits_per_position != fits_rows, f"both or neither reading fit, yet a fix:\n{source}"
    fixed, done = fixes.apply(source, found, unsafe=True)
    assert done, source
    scope = {}
    exec(compile(fixed, "<fixed>", "exec"), scope)
    x, idx = scope["x"], scope["idx"]
    want = per_position(x, idx, axis) if fits_per_position else rows(x, idx, axis)
    assert scope["out"].shape == want.shape and torch.equal(scope["out"], want), fixed


@settings(**COMMON)
@given(data=st.data(), rank=st.integers(2, 3))
def test_gl005_fix_reads_every_entry_of_the_expanded_dims(data, rank):
    import torch

    shape = [data.draw(st.integers(2, 4)) for _ in range(rank)]
    axis = data.draw(st.integers(0, rank - 1))
    short = data.draw(st.sets(st.sampled_from([k for k in range(rank) if k != axis]), min_size=1))
    idx_shape = [1 if k in short else (data.draw(st.integers(1, 5)) if k == axis else shape[k]) for k in range(rank)]
    source = (f"import torch\nx = torch.randn({', '.join(map(str, shape))})\n"
              f"idx = torch.randint({shape[axis]}, ({', '.join(map(str, idx_shape))},))\n"
              f"out = x.gather({axis}, idx)\n")
    found = [f for f in lint(source) if f.code == "GL005"]
    assert found, source
    if any(idx_shape[axis] == shape[k] for k in short):  # as likely an unsqueeze at the wrong dim
        assert found[0].fix is None, source
        return
    assert found[0].fix is not None, source
    fixed, done = fixes.apply(source, found, unsafe=True)
    assert done, source
    scope = {}
    exec(compile(fixed, "<fixed>", "exec"), scope)
    x, idx = scope["x"], scope["idx"]
    # what was meant: the index's values, the same for every entry of the size-1 dims
    full = idx.expand(*[shape[k] if k in short else -1 for k in range(rank)])
    want = same_rank(x, full, axis)
    assert scope["out"].shape == full.shape and torch.equal(scope["out"], want), fixed
