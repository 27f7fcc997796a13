"""Symbolic dimensions and shapes, with three-valued comparisons.

A dimension is a known ``int``, a named :class:`Sym` (``B``, ``vocab_size``), or ``None``
(unknown). Comparisons answer *must* or *don't know*: rules fire only on *must*.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Iterable, Optional, Tuple, Union

from . import linear_sizes


@dataclass(frozen=True)
class Sym:
    """A named dimension. ``expr`` is source text that evaluates to it in the user's scope, if any."""

    name: str
    expr: Optional[str] = field(default=None, compare=False)
    size: Optional[int] = field(default=None, compare=False)  # known value behind the name, if any
    # a count of what a 1-d mask over this dim keeps (`keep.sum()` of a `keep` [E]): at most that dim
    part_of: Optional["Dim"] = field(default=None, compare=False)
    # the call that made a size the data decides (`F.one_hot(labels)`'s width), where a finding on it belongs
    made_at: object = field(default=None, compare=False)

    def __str__(self) -> str:
        return self.name


Dim = Union[int, Sym, None]


@dataclass(frozen=True)
class Shape:
    """Tensor shape. With ``variadic`` the dims are the trailing ones after an unknown prefix."""

    dims: Tuple[Dim, ...]
    variadic: bool = False
    # The rank is a guess: an operand of unknown shape took part in a broadcast (`f(x) * w` with w known),
    # so the result may have more leading dims than these. Kept by what keeps the shape; not compared.
    guessed: bool = field(default=False, compare=False)

    @property
    def rank(self) -> Optional[int]:
        return None if self.variadic else len(self.dims)

    def at(self, axis: int) -> Dim:
        """Dim at ``axis`` (negative counts from the end), or None when it cannot be known."""
        if self.variadic:
            return self.dims[axis] if -len(self.dims) <= axis < 0 else None
        if -len(self.dims) <= axis < len(self.dims):
            return self.dims[axis]
        return None

    def __str__(self) -> str:
        parts = [dim_text(d) for d in self.dims]
        if self.variadic:
            parts.insert(0, "...")
        return "[" + ", ".join(parts) + "]"


def sizes_text(sizes: Iterable[int]) -> str:
    """Concrete sizes (a torch.Size at run time) written as shapes are: `[8, 40]`."""
    return "[" + ", ".join(str(int(n)) for n in sizes) + "]"


def dim_text(d: Dim) -> str:
    return "?" if d is None else str(d)


def value(d: Dim) -> Optional[int]:
    """The integer a dim certainly has, if any."""
    if isinstance(d, int):
        return d
    return d.size if isinstance(d, Sym) else None


def must_equal(a: Dim, b: Dim) -> bool:
    if a is None or b is None:
        return False
    if isinstance(a, Sym) and isinstance(b, Sym) and a.name == b.name:
        return True
    va, vb = value(a), value(b)
    return va is not None and va == vb  # distinct names may still be equal: not definite


def must_differ(a: Dim, b: Dim) -> bool:
    va, vb = value(a), value(b)
    return va is not None and vb is not None and va != vb


def kept_part(part: Dim, whole: Dim) -> bool:
    """`part` counts what a mask over `whole` keeps (`keep.sum()` of a `keep` [E], against E): fewer whenever
    the mask drops an entry, which is what a mask is written for."""
    return isinstance(part, Sym) and part.part_of is not None and must_equal(part.part_of, whole) \
        and not must_equal(part, whole)


def must_scale_apart(a: Dim, b: Dim) -> bool:
    """One named size is a whole multiple of the other, `2*M` against `M` (a cat of two `[M, C]` along
    dim 0): they differ whenever M is not 0."""
    return must_be_multiple(a, b) or must_be_multiple(b, a)


def must_be_multiple(big: Dim, small: Dim) -> bool:
    """big is `k*M` for a named M = small and a whole k > 1: larger whenever M is not 0."""
    if not isinstance(big, Sym) or not isinstance(small, Sym) or small.size is not None:
        return False
    left, right = big.name.split("*"), small.name.split("*")
    for part in right:
        if part not in left:
            return False
        left.remove(part)
    return len(left) == 1 and left[0].isdigit() and int(left[0]) > 1


def must_exceed(a: Dim, b: Dim) -> bool:
    """a > b for certain: by value, or by names that differ by a positive constant (`h*w + 1` > `h*w`)."""
    va, vb = value(a), value(b)
    if va is not None and vb is not None:
        return va > vb
    return isinstance(a, (int, Sym)) and isinstance(b, Sym) and linear_sizes.exceeds(str(a), str(b))


def varies(d: Dim) -> bool:
    """Larger than 1 as far as a rule may assume: a known size > 1, or a named dim.

    A name in a shape annotation (`D`, `vocab_size`) is a dim the author expects to vary;
    a literal 1, an unknown size or `-1` is not.
    """
    v = value(d)
    return v > 1 if v is not None else isinstance(d, Sym)


def normalize_dim(dim: int, rank: int) -> Optional[int]:
    """torch's dim wrapping: valid range is [-max(rank,1), max(rank,1)-1]."""
    width = max(rank, 1)
    if -width <= dim < width:
        return dim % width
    return None


def product(dims: Iterable[Dim]) -> Dim:
    dims = list(dims)
    unit = [d for d in dims if value(d) != 1]
    if len(unit) == 1 and value(unit[0]) is None:
        return unit[0]  # [B, 1] holds B elements: a named size survives flattening the 1s away
    total = 1
    for d in dims:
        v = value(d)
        if v is None:
            return None
        total *= v
    return total


def broadcast(a: Optional[Shape], b: Optional[Shape]) -> Optional[Shape]:
    """Broadcast two shapes; unknown wherever the answer is not certain."""
    if a is None or b is None or a.variadic or b.variadic:
        return None
    n = max(len(a.dims), len(b.dims))
    left = (1,) * (n - len(a.dims)) + a.dims
    right = (1,) * (n - len(b.dims)) + b.dims
    out = []
    for x, y in zip(left, right):
        if value(x) == 1:
            out.append(y)
        elif value(y) == 1 or must_equal(x, y):
            out.append(x)
        elif x is None and isinstance(value(y), int) or y is None and isinstance(value(x), int):
            out.append(y if x is None else x)  # an unknown size meets 7: it is 1 or 7 (else torch raises), the result 7
        else:
            out.append(None)
    return Shape(tuple(out), guessed=a.guessed or b.guessed)


def join_dim(a: Dim, b: Dim) -> Dim:
    return a if must_equal(a, b) else None


def join_shape(a: Optional[Shape], b: Optional[Shape]) -> Optional[Shape]:
    """What two control-flow paths agree on."""
    if a is None or b is None or a.variadic != b.variadic or len(a.dims) != len(b.dims):
        return None
    return Shape(tuple(join_dim(x, y) for x, y in zip(a.dims, b.dims)), a.variadic, a.guessed or b.guessed)
