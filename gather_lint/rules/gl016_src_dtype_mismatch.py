"""GL016 src dtype mismatch: a scatter or index op writes a src/source of another dtype than self.

``scatter_``/``scatter``/``scatter_add_``/``scatter_reduce_`` and ``index_add_``/``index_copy_`` (and their
out-of-place forms) never convert what they write: ``torch.zeros(3, 5).scatter_(0, idx, torch.tensor([[1, 2, 3]]))``
raises ``scatter(): Expected self.dtype to be equal to src.dtype`` because the zeros are float32 and the
literal is int64; ``counts.index_add_(0, ids, torch.ones(n))`` onto an int64 ``counts`` raises ``self (Long)
and source (Float) must have the same scalar type``. torch 2.13 rejects every pair of distinct dtypes, even
with an empty index. A Python scalar (``scatter_(d, idx, 1.0)``, ``value=``) or ``index_fill_`` value is
converted and is fine. Indexed assignment through an index tensor, ``buf[rows] = v``, is ``index_put_`` and
converts no tensor value either (a slice, a number or a 0-d index converts). Between float32 and another float
dtype it reports only where the float32 is certain: made by the code itself (``torch.zeros(n)`` or
``torch.randn(B, D)`` in a file that keeps the default dtype, ``.float()``, ``dtype=torch.float32``, ``.type_as``
of such a tensor) and carried through ops that compute in their inputs' dtype. A ``Float[...]`` annotation, a
docstring's FloatTensor, a layer's output or an ``nn.Parameter`` may stand for any float (a model's ``.half()``,
autocast), so it stays silent on those.
"""
from typing import Optional

from ..contract import ERROR, Site, Violation, named
from ._example import Example

CODE = "GL016"
NAME = "src-dtype-mismatch"
SEVERITY = ERROR
FIX = None  # whether self or src has the intended dtype is the author's call

_CHECKED = {"scatter", "scatter_add", "scatter_reduce", "index_add", "index_copy"}
_RAISES = {True: "'Expected self.dtype to be equal to src.dtype'", False: "'self and source must have the same scalar type'"}
_LOOSE = "float32"  # a `Float[...]` annotation or the default dtype may stand for any float dtype

EXAMPLES = [
    Example(
        title="one-hot rows written from an integer literal into a float buffer",
        bad="""
import torch
idx = torch.tensor([[0, 1, 2]])
out = torch.zeros(3, 5).scatter_(0, idx, torch.tensor([[1, 2, 3]]))
expected = torch.zeros(3, 5)
for j in range(3):
    expected[idx[0, j], j] = j + 1
""",
        good="""
import torch
idx = torch.tensor([[0, 1, 2]])
out = torch.zeros(3, 5).scatter_(0, idx, torch.tensor([[1.0, 2.0, 3.0]]))
expected = torch.zeros(3, 5)
for j in range(3):
    expected[idx[0, j], j] = j + 1
""",
    ),
    Example(
        title="in-degree counts accumulated from float ones into an int64 buffer",
        bad="""
import torch
targets = torch.tensor([0, 2, 2, 3, 0, 2])
out = torch.zeros(4, dtype=torch.long).index_add_(0, targets, torch.ones(6))
expected = torch.tensor([sum(int(t == n) for t in targets) for n in range(4)])
""",
        good="""
import torch
targets = torch.tensor([0, 2, 2, 3, 0, 2])
out = torch.zeros(4, dtype=torch.long).index_add_(0, targets, torch.ones(6, dtype=torch.long))
expected = torch.tensor([sum(int(t == n) for t in targets) for n in range(4)])
""",
    ),
]


EXAMPLES.append(Example(
    title="pooled float64 features written through an index tensor into a fresh float32 buffer",
    bad="""
import torch
feats = torch.tensor([[1.0, 2.0], [3.0, 4.0]], dtype=torch.float64)
rows = torch.tensor([2, 0])
out = torch.zeros(3, 2)
out[rows] = feats
expected = torch.zeros(3, 2)
for k in range(2):
    expected[int(rows[k])] = torch.tensor([float(v) for v in feats[k]])
""",
    good="""
import torch
feats = torch.tensor([[1.0, 2.0], [3.0, 4.0]], dtype=torch.float64)
rows = torch.tensor([2, 0])
out = torch.zeros(3, 2, dtype=feats.dtype)
out[rows] = feats
expected = torch.zeros(3, 2, dtype=torch.float64)
for k in range(2):
    expected[int(rows[k])] = torch.tensor([float(v) for v in feats[k]], dtype=torch.float64)
""",
))


EXAMPLES.append(Example(
    title="half-precision teacher probabilities scattered into a float32 buffer",
    bad="""
import torch
probs, ids = torch.randn(2, 3, 10).softmax(-1).topk(4, dim=-1)
teacher = probs.half()
out = torch.zeros(2, 3, 10).scatter(2, ids, teacher)
expected = torch.zeros(2, 3, 10)
for b in range(2):
    for t in range(3):
        for j in range(4):
            expected[b, t, ids[b, t, j]] = float(teacher[b, t, j])
""",
    good="""
import torch
probs, ids = torch.randn(2, 3, 10).softmax(-1).topk(4, dim=-1)
teacher = probs.half()
out = torch.zeros(2, 3, 10).scatter(2, ids, teacher.float())
expected = torch.zeros(2, 3, 10)
for b in range(2):
    for t in range(3):
        for j in range(4):
            expected[b, t, ids[b, t, j]] = float(teacher[b, t, j])
""",
))


def _kind(dtype: str) -> int:
    return 0 if dtype == "bool" else (2 if dtype.startswith(("float", "bfloat")) else 1)


def mismatched(mine: Optional[str], theirs: Optional[str], exact: bool) -> bool:
    """Two known dtypes torch refuses to mix; float32 against another float only when `exact` (float32 for
    certain): otherwise a loose "some float" (an annotation's Float, the default dtype) may be either."""
    if mine is None or theirs is None or mine == theirs:
        return False
    return not (_kind(mine) == _kind(theirs) and _LOOSE in (mine, theirs) and not exact)


def check_index_put(target: str, written: str, mine: str, theirs: str) -> Violation:
    """`x[idx] = v` with an index tensor: index_put_, which converts no tensor value either."""
    return Violation(
        CODE, SEVERITY,
        f"`{target} = {written}` writes a tensor of dtype {theirs} through an index tensor into a tensor of dtype "
        f"{mine}; indexed assignment (index_put_) never converts a tensor value and raises 'Index put requires the "
        f"source and destination dtypes match'; make them match, e.g. `({written}).to(torch.{mine})`",
    )


def check(site: Site) -> Optional[Violation]:
    if site.op.name not in _CHECKED or site.payload is None or site.options.get("payload_from") == "value":
        return None
    mine, theirs = site.input.dtype, site.payload.dtype
    # real dtypes at run time, or the float32 side's dtype made for certain by the code
    exact = site.options.get("dtypes_exact") or (mine == _LOOSE and site.options.get("input_dtype_exact")) \
        or (theirs == _LOOSE and site.options.get("payload_dtype_exact"))
    if not mismatched(mine, theirs, exact):
        return None
    role = "src" if site.op.family == "scatter" else "source"
    return Violation(
        CODE, SEVERITY,
        f"{site.op.spelled}() writes {role} {named(site.payload)} of dtype {theirs} into {named(site.input)} of dtype "
        f"{mine}; torch never converts it and raises {_RAISES[site.op.family == 'scatter']}; "
        f"make them match, e.g. `.to(torch.{mine})` on the {role}",
        shown=role,  # the argument to change is the written one, not the index
    )
