"""Index lists that can be empty: `torch.tensor([i for i in ids if keep(i)])` without a dtype.

torch.tensor infers the dtype from the items, and an empty list has none: `torch.tensor([])` is
float32. index_select / index_add_ / index_copy_ / take then raise on exactly the inputs where the
filter keeps nothing (a rare batch, a short sentence), far from where the list was built.
"""
from __future__ import annotations

import ast
from dataclasses import dataclass
from typing import Optional

from ..contract import Domain
from ..dims import Shape
from . import tree_walk
from .values import DimVal, TensorVal


@dataclass(frozen=True)
class MaybeEmptyList:
    """A Python list made by a filtered comprehension: empty when no item passes the filter."""

    filter_text: str  # the first `if` clause, for messages
    line: int
    one_d: bool  # the items are ints: the tensor is 1-d


def filtered(node: ast.ListComp, element, segment) -> Optional[MaybeEmptyList]:
    """A list comprehension with an `if` clause; None without one (it is as long as its source)."""
    ifs = [cond for gen in node.generators for cond in gen.ifs]
    if not ifs or _fixed_by_config(node) or _excludes_named_items(node, ifs):
        return None
    return MaybeEmptyList(segment(ifs[0]), node.lineno, isinstance(element, DimVal))


def tensor_of(items: MaybeEmptyList, list_name: Optional[str], function, call=None) -> Optional[TensorVal]:
    """`torch.tensor(items)` with no dtype; None where the function tests the list (`if not keep:`) or the
    tensor made of it (`if len(idx) == 0: raise`), which is how code that knows about the empty case guards it."""
    if function is not None and _guarded(list_name, call, function):
        return None
    what = f"`{list_name}`" if list_name else "the list"
    why = (f"{what} (line {items.line}) is empty when no item passes `if {items.filter_text}`, and "
           f"torch.tensor([]) is float32")
    return TensorVal(Shape((None,)) if items.one_d else None, None, Domain(float_if_empty=why), origin="constructor")


_TESTS = (ast.If, ast.While, ast.IfExp, ast.Assert)


def _guarded(list_name: Optional[str], call, function) -> bool:
    """Whether an `if`/`while`/`assert` test of `function` reads the list or a name `call` (the
    torch.tensor(...) of it) is assigned to, also through methods called on it (`idx =
    torch.tensor(items).to(device)`); one walk of the function answers every call in it."""
    tested, made_from, twins = _tests_and_makers(function)
    made = {list_name} - {None}
    if call is not None:
        made.update(made_from.get(id(call), ()))
    for name in list(made):  # `if blank:` guards `fill` too when both filter the same items the same way
        made.update(twins.get(name, ()))
    return not made.isdisjoint(tested)


def _tests_and_makers(function):
    """(names the function's tests read, id(node) -> names assigned from it through method calls), kept
    on the function's node."""
    found = getattr(function, "_gather_lint_guard_names", None)
    if found is not None:
        return found
    tested, made_from, filters = set(), {}, {}
    for node in tree_walk.all_nodes(function):
        if isinstance(node, _TESTS):
            tested.update(n.id for n in ast.walk(node.test) if isinstance(n, ast.Name))
        elif isinstance(node, ast.Assign):
            names = [t.id for t in node.targets if isinstance(t, ast.Name)]
            if isinstance(node.value, ast.ListComp) and names:
                filters.setdefault(_filter_key(node.value), set()).update(names)
            value = node.value  # `idx = torch.tensor(items).to(device)`: each call of the chain makes idx
            while True:
                made_from.setdefault(id(value), []).extend(names)
                if not (isinstance(value, ast.Call) and isinstance(value.func, ast.Attribute)):
                    break
                value = value.func.value
    twins = {name: names for names in filters.values() if len(names) > 1 for name in names}
    found = function._gather_lint_guard_names = (tested, made_from, twins)
    return found


def _filter_key(node: ast.ListComp) -> str:
    """What decides how many items a comprehension keeps: its loops' targets, sources and filters (not the
    element). Two lists of one key are empty together: `blank = [v + i for i, t in m if t]` and `fill = [t for i,
    t in m if t]`."""
    return "|".join(ast.dump(part) for gen in node.generators for part in (gen.target, gen.iter, *gen.ifs))


def _excludes_named_items(node: ast.ListComp, ifs) -> bool:
    """`[x for x in range(n) if x not in del_indices]`: every item but those the caller names. It is empty
    only when the caller names them all (delete every channel), a choice of the caller and not a batch the
    data may bring; an item's own test (`if e - s <= max_len`, `if t != pad`) can fail for all of them."""
    loops = {n.id for gen in node.generators for n in ast.walk(gen.target) if isinstance(n, ast.Name)}
    return all(isinstance(cond, ast.Compare) and len(cond.ops) == 1 and isinstance(cond.ops[0], ast.NotIn)
               and isinstance(cond.left, ast.Name) and cond.left.id in loops for cond in ifs)


def _fixed_by_config(node: ast.ListComp) -> bool:
    """`[x for x in range(self.groups * (self.k + 1)) if x % (self.k + 1) != 0]`: ranges and filters that read
    only the loop names, numbers and the module's own attributes make the same list on every call, whatever
    the inputs. No batch empties it; a list empty for the configuration would fail the first forward."""
    loops = {n.id for gen in node.generators for n in ast.walk(gen.target) if isinstance(n, ast.Name)}
    for gen in node.generators:
        source = gen.iter
        if not (isinstance(source, ast.Call) and isinstance(source.func, ast.Name) and source.func.id == "range"
                and not source.keywords):
            return False
        if not all(_configured(part, loops) for part in source.args + gen.ifs):
            return False
    return True


def _configured(expr, loops) -> bool:
    """Whether `expr` reads only the loop names, constants and `self.<attr>`, through arithmetic and comparisons."""
    if isinstance(expr, ast.Constant):
        return isinstance(expr.value, (int, bool))
    if isinstance(expr, ast.Name):
        return expr.id in loops
    if isinstance(expr, ast.Attribute):
        return isinstance(expr.value, ast.Name) and expr.value.id == "self"
    if isinstance(expr, ast.BinOp):
        return _configured(expr.left, loops) and _configured(expr.right, loops)
    if isinstance(expr, ast.UnaryOp):
        return _configured(expr.operand, loops)
    if isinstance(expr, ast.Compare):
        return all(_configured(part, loops) for part in [expr.left, *expr.comparators])
    if isinstance(expr, ast.BoolOp):
        return all(_configured(part, loops) for part in expr.values)
    return False
