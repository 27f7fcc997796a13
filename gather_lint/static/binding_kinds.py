"""Names whose bindings in a function show they hold no repeating ids, whatever their name says.

A name that sounds like ids (`part_ids`, `sequence_ids`, `labels`) gives a value the analysis does not
hold the word "these values can repeat" (names.category_domain). The code can say otherwise:

- every assignment makes positions, with arange, randperm, topk, sort or argsort (`part_ids =
  torch.arange(V)` before a loop, `part_ids = scores.topk(k)[1]` inside it): the analysis forgets a name a
  loop rebinds, but positions are what it never takes for repeating while it holds them;
- it is a key of a dict the function iterates (`for sequence_ids, bias in table.items()`): dict keys are
  hashable Python values (tuples of token ids, ints, strings), not index tensors, and `sequence_ids[-1]`
  is one int;
- every assignment but `None` makes a mask: a comparison (`drop_ids = force_drop_ids == 1`, `torch.rand(n) <
  p`), a logical op or predicate (`torch.logical_or(a, b)`, `~keep`, `x.isnan()`), or a name that holds one
  (`drop_ids = drop_ids_rand`): a mask selects each row once, whatever its name says. The analysis can lose
  the bool dtype where the paths meet (a comparison of a parameter it does not know on one of them);
- every assignment makes a Python mapping, `Counter()`, `defaultdict(int)`, `OrderedDict()` or `dict()`
  (`encountered_labels = Counter()`, then `encountered_labels[label] += 1`): it is keyed by the values, a
  tensor never, and `+=` on one key adds to one count.
"""
from __future__ import annotations

import ast
from typing import Dict

from . import tree_walk

_MAKERS = frozenset({"arange", "randperm", "argsort"})  # calls whose result is the positions
_PAIRS = frozenset({"topk", "sort"})  # calls whose [1] / .indices are the positions
# a function spelling none of these binds no name either way (argsort: "sort")
_WORDS = ("arange", "randperm", "sort", "topk", ".items()", ".keys()", "Counter(", "defaultdict(", "OrderedDict(",
          "dict(")
_MAPPINGS = frozenset({"Counter", "defaultdict", "OrderedDict", "dict"})  # constructors of a Python mapping
# calls whose result is a bool mask (the torch spellings of comparisons, logical ops and predicates)
_MASK_CALLS = frozenset({
    "eq", "ne", "lt", "le", "gt", "ge", "greater", "less", "greater_equal", "less_equal", "not_equal",
    "logical_and", "logical_or", "logical_xor", "logical_not", "isnan", "isinf", "isfinite", "isposinf",
    "isneginf", "isin"})
_MASK_WORDS = ("==", "!=", "<", ">", "logical_", "isnan", "isinf", "isfinite", "isin", "~")
_BINDERS = frozenset({ast.arg, ast.Assign, ast.AugAssign, ast.AnnAssign, ast.For, ast.AsyncFor, ast.comprehension, ast.With,
                      ast.NamedExpr})


def not_repeating_ids(function, name: str, lines) -> bool:
    """Whether `function` (whose source `lines` are the file's) binds `name` only to positions, to masks or
    to Python mappings, or as a key of `.items()` / `.keys()`."""
    if function is None:
        return False
    found = getattr(function, "_gather_lint_binding_kinds", None)
    if found is None:  # one walk per function and kind, only of one that spells a maker, a dict loop or a mask
        text = "\n".join(lines[function.lineno - 1:function.end_lineno or function.lineno])
        found = _kinds(tree_walk.all_nodes(function)) if any(word in text for word in _WORDS) else frozenset()
        if any(word in text for word in _MASK_WORDS):
            found = found | _masks(tree_walk.all_nodes(function))
        function._gather_lint_binding_kinds = found
    return name in found


def _kinds(nodes) -> frozenset:
    positions: Dict[str, bool] = {}  # name -> whether every assignment to it so far makes positions
    keys = set()
    for node in nodes:
        if isinstance(node, ast.Assign):
            for target in node.targets:
                if isinstance(target, ast.Name):
                    positions[target.id] = positions.get(target.id, True) and (
                        _makes_positions(node.value) or _makes_mapping(node.value))
        elif isinstance(node, (ast.For, ast.AsyncFor, ast.comprehension)):
            keys.update(_key_names(node))
    return frozenset(keys | {name for name, made in positions.items() if made})


def _masks(nodes) -> frozenset:
    """The names every assignment of which, `None` aside, makes a mask, with at least one that does."""
    masks: Dict[str, bool] = {}  # name -> whether every assignment to it so far (None aside) makes a mask
    for node in nodes:
        if type(node) not in _BINDERS:
            continue  # most nodes bind nothing: one set lookup instead of five isinstance tests each
        if isinstance(node, ast.arg):
            masks[node.arg] = False  # a parameter holds what the caller passed before any rebinding
        elif isinstance(node, ast.Assign):
            for target in node.targets:
                if isinstance(target, ast.Name) and not (isinstance(node.value, ast.Constant) and node.value.value is None):
                    masks[target.id] = masks.get(target.id, True) and _makes_mask(node.value, masks)
        elif isinstance(node, (ast.AugAssign, ast.AnnAssign)) and isinstance(node.target, ast.Name):
            if isinstance(node, ast.AugAssign) and isinstance(node.op, (ast.BitAnd, ast.BitOr, ast.BitXor)):
                continue  # `mask &= other`: still a mask when both are
            masks[node.target.id] = False
        elif isinstance(node, (ast.For, ast.AsyncFor, ast.comprehension, ast.With, ast.NamedExpr)):
            for target in _bound(node):
                masks[target] = False
    return frozenset(name for name, made in masks.items() if made)


def _bound(node):
    """Names a loop, comprehension, with or walrus binds (to what, the walk does not read)."""
    if isinstance(node, ast.With):
        targets = [item.optional_vars for item in node.items if item.optional_vars is not None]
    else:
        targets = [node.target]
    return [n.id for t in targets for n in ast.walk(t) if isinstance(n, ast.Name)]


def _makes_mask(node, masks) -> bool:
    if isinstance(node, ast.Compare):
        return True
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, (ast.Invert, ast.Not)):
        return _makes_mask(node.operand, masks) or isinstance(node.op, ast.Not)
    if isinstance(node, ast.BinOp) and isinstance(node.op, (ast.BitAnd, ast.BitOr, ast.BitXor)):
        return _makes_mask(node.left, masks) and _makes_mask(node.right, masks)
    if isinstance(node, ast.Call):
        return _called(node) in _MASK_CALLS
    if isinstance(node, ast.Name):
        return masks.get(node.id, False)
    return False


def _makes_mapping(node) -> bool:
    return isinstance(node, ast.Call) and _called(node) in _MAPPINGS


def _makes_positions(node) -> bool:
    if isinstance(node, ast.Call):
        return _called(node) in _MAKERS
    if isinstance(node, ast.Subscript) and isinstance(node.slice, ast.Constant) and node.slice.value == 1:
        return isinstance(node.value, ast.Call) and _called(node.value) in _PAIRS  # torch.topk(s, k)[1]
    if isinstance(node, ast.Attribute) and node.attr == "indices":
        return isinstance(node.value, ast.Call) and _called(node.value) in _PAIRS  # s.topk(k).indices
    return False


def _key_names(loop):
    """The key names of `for k, v in d.items()` / `for k in d.keys()`."""
    it, target = loop.iter, loop.target
    if not (isinstance(it, ast.Call) and isinstance(it.func, ast.Attribute) and not it.args):
        return ()
    if it.func.attr == "items" and isinstance(target, ast.Tuple) and target.elts and isinstance(target.elts[0], ast.Name):
        return (target.elts[0].id,)
    if it.func.attr == "keys" and isinstance(target, ast.Name):
        return (target.id,)
    return ()


def _called(call: ast.Call):
    func = call.func
    return func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", None)
