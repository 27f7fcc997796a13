"""Names whose bindings in a function show they hold no repeating ids, whatever their name says.

A name that sounds like ids (`part_ids`, `sequence_ids`, `labels`) gives a value the analysis does not
hold the word "these values can repeat" (names.category_domain). The code can say otherwise:

- every assignment makes positions, with arange, randperm, topk, sort, argsort or the one-argument where (`part_ids =
  torch.arange(V)` before a loop, `part_ids = scores.topk(k)[1]` inside it): the analysis forgets a name a
  loop rebinds, but positions are what it never takes for repeating while it holds them. Positions stay
  distinct through what keeps or drops entries without copying any: a slice (`order[:k]`), `.tolist()`,
  `list()`, `torch.tensor()`, a cast; so do the lists of them a comprehension makes, the items a loop
  over such a list binds (one expert's top-k neurons, `for picks in per_expert_picks`) and positions
  picked by positions (`order[i]`, `perm[order]`: one-to-one maps composed). `range()` counts positions,
  `set()` keeps each value once (`sorted(set(members))`),
  and a name that says it holds an ordering (`sorted_index_list`, `perm`, `order`) holds positions;
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
import re
from typing import Dict

from . import tree_walk

# calls whose result is the positions, or distinct values (a set holds each once)
_MAKERS = frozenset({"arange", "randperm", "argsort", "range", "set"})
# names of an ordering (the words names.category_domain also reads as no ids)
_ORDERING_NAME = re.compile(r"(?:sorted|argsort|perm|permutation|order)(?:_\w+)?")
_PAIRS = frozenset({"topk", "sort"})  # calls whose [1] / .indices are the positions
# a function spelling none of these binds no name either way (argsort: "sort")
_WORDS = ("arange", "randperm", "sort", "topk", "perm", "order", "range(", "set(", ".items()", ".keys()", "Counter(",
          "defaultdict(", "OrderedDict(", "dict(", "where(", "nonzero(")
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
    # name -> True while every binding so far makes positions; _OPAQUE while the others are calls of the
    # code's own helpers (`self.sort_by_criterion()`), which leave it to the name; False once one makes other values
    positions: Dict[str, object] = {}
    keys = set()
    for node in nodes:
        if isinstance(node, ast.Assign):
            for target in node.targets:
                if isinstance(target, ast.Name):
                    made = _makes_positions(node.value, positions) or _makes_mapping(node.value) or (
                        _OPAQUE if _own_helper_call(node.value) else False)
                    positions[target.id] = _both(positions.get(target.id, True), made)
        elif isinstance(node, (ast.For, ast.AsyncFor, ast.comprehension)):
            keys.update(_key_names(node))
            if isinstance(node.target, ast.Name) and _makes_positions(node.iter, positions):
                # items of a list of position lists (or single positions): no item repeats an entry
                positions[node.target.id] = positions.get(node.target.id, True)
    return frozenset(keys | {name for name, made in positions.items() if made is True})


_OPAQUE = "opaque"


def _both(before, now):
    if before is False or now is False:
        return False
    return _OPAQUE if _OPAQUE in (before, now) else True


def _own_helper_call(node) -> bool:
    """A call of a method of `self` or `cls`: what it returns only the code's own words say."""
    func = getattr(node, "func", None)
    return isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name) and func.value.id in ("self", "cls")


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
        return tree_walk.called_name(node) in _MASK_CALLS
    if isinstance(node, ast.Name):
        return masks.get(node.id, False)
    return False


def _makes_mapping(node) -> bool:
    return isinstance(node, ast.Call) and tree_walk.called_name(node) in _MAPPINGS


def _found_positions(node: ast.Call, called: str) -> bool:
    """`np.where(cond)` / `torch.where(cond)` (one argument), `x.nonzero(as_tuple=True)`, `np.flatnonzero(m)`: the
    positions of the true entries, each once (a tuple of them indexes every chosen element once)."""
    if called == "where":
        return len(node.args) == 1 and not node.keywords
    if called == "nonzero":
        return any(k.arg == "as_tuple" and isinstance(k.value, ast.Constant) and k.value.value is True for k in node.keywords) \
            or (isinstance(node.func, ast.Attribute) and isinstance(node.func.value, ast.Name)
                and node.func.value.id in ("np", "numpy"))  # numpy's nonzero is where's one-argument form
    return called == "flatnonzero"


def _makes_positions(node, positions) -> bool:
    """Whether `node` makes positions, or a list of position lists; `positions` says it of the names so far."""
    if isinstance(node, ast.Call):
        called = tree_walk.called_name(node)
        if _found_positions(node, called):
            return True
        if called in _KEEPERS and (node.args or isinstance(node.func, ast.Attribute)):
            # `ids.tolist()`, `ids.long()` of its owner; `torch.tensor(ids)`, `list(ids)` of its argument
            kept = node.args[0] if node.args and called in _KEEPER_FUNCTIONS else getattr(node.func, "value", None)
            if kept is not None and _makes_positions(kept, positions):
                return True
        return called in _MAKERS and (called != "set" or isinstance(node.func, ast.Name))  # not `cfg.set(...)`
    if isinstance(node, ast.Subscript):
        if isinstance(node.slice, ast.Constant) and node.slice.value == 1 and isinstance(node.value, ast.Call):
            return tree_walk.called_name(node.value) in _PAIRS  # torch.topk(s, k)[1]
        if isinstance(node.slice, ast.Slice):  # `order[:k]`: a part of distinct entries
            return node.slice.step is None and _makes_positions(node.value, positions)
        # `order[i]`, `perm[order]`: positions picked by an int or by positions are distinct
        picked_by_positions = (isinstance(node.slice, ast.Constant) and type(node.slice.value) is int) or \
            _makes_positions(node.slice, positions)
        return picked_by_positions and _makes_positions(node.value, positions)
    if isinstance(node, ast.Attribute) and node.attr == "indices":
        return isinstance(node.value, ast.Call) and tree_walk.called_name(node.value) in _PAIRS  # s.topk(k).indices
    if isinstance(node, ast.Name):
        made = positions.get(node.id, _OPAQUE)  # what the function binds it to says more than its name
        return made is True or (made == _OPAQUE and _ORDERING_NAME.fullmatch(node.id) is not None)
    if isinstance(node, (ast.ListComp, ast.GeneratorExp)) and len(node.generators) == 1:
        generator = node.generators[0]
        local = dict(positions)  # the comprehension's own name, positions when what it iterates holds them
        if isinstance(generator.target, ast.Name):
            local[generator.target.id] = _makes_positions(generator.iter, positions)
        return _makes_positions(node.elt, local)
    return False


# calls that keep their input's entries, each once: of the owner (`ids.tolist()`) or of the first argument
_KEEPERS = frozenset({"tolist", "long", "int", "to", "cpu", "cuda", "clone", "detach", "tensor", "as_tensor",
                      "list", "LongTensor", "sorted"})
_KEEPER_FUNCTIONS = frozenset({"tensor", "as_tensor", "list", "LongTensor", "sorted"})


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
