"""Named sizes through arithmetic: `x[:, :-1]` of a `[B, T]` is `[B, T-1]`, `x.view(-1, V)` of a
`[B, T, V]` is `[B*T, V]`, `labels.view(-1, 1)` of a `[B]` is `[B, 1]`.

A result gets a name only when it is certain; the same computation on the same names gives the
same name, so two tensors sliced or flattened alike compare equal. Anything else stays unknown.
"""
from __future__ import annotations

from collections import Counter
from typing import Iterable, List, Optional

from .. import linear_sizes
from ..dims import Dim, Sym, value


def _text(d: Dim) -> Optional[str]:
    return str(d) if isinstance(d, (int, Sym)) else None


def _expr(d: Dim) -> Optional[str]:
    if isinstance(d, int):
        return str(d)
    return d.expr if isinstance(d, Sym) else None


def minus(d: Dim, k: int) -> Dim:
    """d - k for a named d (k > 0): what slicing k entries off one end leaves."""
    if not isinstance(d, Sym) or k <= 0:
        return None
    size = d.size - k if d.size is not None and d.size >= k else None
    if d.size is not None and size is None:
        return 0  # fewer entries than k: slicing leaves none
    expr = f"{d.expr} - {k}" if d.expr else None
    return Sym(f"{d.name}-{k}", expr=expr, size=size)


def product(dims: Iterable[Dim]) -> Dim:
    """The product of known or named dims, named `B*T`; None if any is unknown."""
    dims = list(dims)
    if any(d is None for d in dims):
        return None
    values = [value(d) for d in dims]
    if all(v is not None for v in values):
        total = 1
        for v in values:
            total *= v
        if not any(isinstance(d, Sym) for d in dims):
            return total
        size = total
    else:
        size = None
    factors = [d for d in dims if not (isinstance(d, int) and d == 1)]
    if not factors:
        return 1
    if len(factors) == 1:
        return factors[0]
    name = "*".join(_text(d) for d in factors)
    exprs = [_expr(d) for d in factors]
    expr = " * ".join(exprs) if all(exprs) else None
    return Sym(name, expr=expr, size=size)


def _factors(d: Dim) -> Optional[List[str]]:
    """`B*T` -> ['B', 'T']; 1 -> []; unknown -> None."""
    if d is None:
        return None
    if isinstance(d, int):
        return [] if d == 1 else [str(d)]
    return [part for part in d.name.split("*") if part != "1"]


def quotient(total: List[Dim], rest: List[Dim]) -> Dim:
    """The size `-1` stands for in view/reshape: product(total) / product(rest), when the named
    factors of rest are among those of total and its numbers divide theirs (`[B, T, V].view(-1, V)` -> B*T,
    `[K, 8].view(-1, 2, 4)` -> K)."""
    have, want = _factor_counts(total), _factor_counts(rest)
    if have is None or want is None:
        return None
    have_number, want_number = _number_part(have), _number_part(want)
    if want_number == 0 or any(have[name] < count for name, count in want.items()) or have_number % want_number:
        return None  # (a 0 beside the -1 leaves it undetermined: torch refuses it)
    left = have - want
    by_name = {}
    for d in total:
        if isinstance(d, Sym) and "*" not in d.name:
            by_name[d.name] = d
    dims: List[Dim] = [by_name.get(name, Sym(name)) for name in sorted(left.elements(), key=lambda n: _order(total, n))]
    if have_number // want_number != 1:
        dims.append(have_number // want_number)
    return product(dims) if dims else 1


def _number_part(counts: Counter) -> int:
    """The product of the numeric factors, taken out of `counts` (which keeps the named ones)."""
    number = 1
    for name in [n for n in counts if n.isdigit()]:
        number *= int(name) ** counts.pop(name)
    return number


def _factor_counts(dims: List[Dim]) -> Optional[Counter]:
    """How often each named or numeric factor appears in the product of dims; None when one is unknown."""
    counts: Counter = Counter()
    for d in dims:
        parts = _factors(d)
        if parts is None:
            return None
        counts.update(parts)
    return counts


def _order(total: List[Dim], name: str) -> int:
    for position, d in enumerate(total):
        parts = _factors(d) or []
        if name in parts:
            return position
    return len(total)


def total(dims: Iterable[Dim]) -> Dim:
    """The sum of sizes named or known (`N`, `M`, `1` -> `M+N+1`, written as minus() writes `T-1`): a name
    linear_sizes reads back, so that `T+1` compares with `T`; None when one is unknown or no sum of products."""
    terms = []
    for d in dims:
        if d is None:
            return None
        terms.append(str(d))
    summed = linear_sizes.parse(" + ".join(f"({t})" for t in terms))
    if summed is None:
        return None
    if set(summed) <= {()}:
        return summed.get((), 0)
    return Sym(linear_sizes.text(summed).replace(" ", ""))
