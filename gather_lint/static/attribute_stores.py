"""Which `self.x` facts from `__init__` still hold in the other methods.

An attribute that `__init__` builds (any number of times, in order: `self.alpha = alpha`, then
`self.alpha = torch.tensor([alpha, 1 - alpha])` for a float) and no other method rebinds keeps its
fact everywhere. A later `self.alpha = self.alpha.to(x)` / `.type_as(x)` / `.cuda()` (moving or
casting the same tensor on first use, a common idiom) keeps its shape but not its dtype. A buffer
updated through a copy, `new = self.buf.clone()`, in-place writes into `new`, `self.buf = new`, keeps
its shape and dtype, not its values. Any other rebinding outside `__init__`
(`self.alpha = self.alpha.gather(0, labels)`) makes the fact unknown.
"""
from __future__ import annotations

import ast
from typing import Dict, List

from . import rank_kept_stores, tree_walk
from .values import join, join_all

# methods that return the same tensor with the same shape (device or dtype may change)
_SAME_SHAPE = {"to", "type_as", "type", "float", "double", "half", "bfloat16", "cuda", "cpu", "detach", "clone",
               "contiguous", "long", "int", "requires_grad_", "pin_memory"}

SETTLED, RETYPED, RANKED, REWRITTEN, GROWN = "settled", "retyped", "ranked", "rewritten", "grown"


class GrowingList:
    """An attribute made an empty list (or deque) in `__init__` that the class's methods only append to (a
    replay buffer's `self.buffer.append(transition)`): what the appends add is what it holds."""

    def __eq__(self, other):
        return isinstance(other, GrowingList)

    def __hash__(self):
        return hash("GrowingList")


def settled_attributes(lineage: List[ast.ClassDef], init) -> Dict[str, str]:
    """`name -> SETTLED | RETYPED | RANKED` for attributes whose `__init__` fact holds in every method of a class
    and of the file's classes it derives from (`lineage`, the class first); `init` is the `__init__` its
    instances run (its own or an inherited one)."""
    methods = [n for cls in lineage for n in cls.body if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))]
    outside: Dict[str, list] = {}
    inside: set = set()
    method_of: Dict[int, ast.AST] = {}
    for method in methods:
        if method is init or method.name == "__init__":  # an ancestor's, run by super().__init__(...)
            inside.update(_stores(method))
            continue
        for name, stores in _stores(method).items():
            outside.setdefault(name, []).extend(stores)
            method_of.update((id(stmt), method) for stmt in stores)
    found = {}
    for name in inside if init is not None else ():
        stores = outside.get(name, ())
        if not stores:
            found[name] = SETTLED
        elif all(_kept_update(node, name) for node in stores):
            found[name] = RETYPED
        elif all(_kept_update(node, name) or _copy_stored(node, name, method_of[id(node)]) for node in stores):
            found[name] = REWRITTEN
        elif all(rank_kept_stores.keeps_rank(node, name) for node in stores):
            found[name] = RANKED
        elif all(_appends(node) for node in stores):
            found[name] = GROWN
    return found


def stored_names(function) -> List[str]:
    """The attributes a function stores (`self.x = ...`), in no particular order."""
    return list(_stores(function))


def _stores(function) -> Dict[str, list]:
    """`self.x = ...` statements (and statement-level register_buffer calls) of one function. Only
    statements are visited, not every expression: model classes are large. Kept on the function's node:
    a parent's methods are read again for each class derived from it (callers must not change it)."""
    found = getattr(function, "_gather_lint_attribute_stores", None)
    if found is not None:
        return found
    found = {}
    todo = list(function.body)
    while todo:
        stmt = todo.pop()
        targets = list(stmt.targets) if isinstance(stmt, ast.Assign) else (
            [stmt.target] if isinstance(stmt, (ast.AnnAssign, ast.AugAssign, ast.For, ast.AsyncFor)) else [])
        while targets:
            target = targets.pop()
            if isinstance(target, (ast.Tuple, ast.List)):
                targets.extend(target.elts)
            elif isinstance(target, ast.Starred):
                targets.append(target.value)
            elif isinstance(target, ast.Attribute) and isinstance(target.value, ast.Name) and target.value.id == "self":
                found.setdefault(target.attr, []).append(stmt)
        call = getattr(stmt, "value", None)
        if isinstance(call, ast.Call) and isinstance(call.func, ast.Attribute) and call.func.attr == "register_buffer" \
                and call.args and isinstance(call.args[0], ast.Constant) and isinstance(call.args[0].value, str):
            found.setdefault(call.args[0].value, []).append(stmt)
        elif isinstance(stmt, ast.Expr) and container_mutation(call):
            # self.rewards.append(r): the list __init__ made is not the one other methods read
            found.setdefault(call.func.value.attr, []).append(stmt)
        for field in ("body", "orelse", "finalbody"):
            todo.extend(getattr(stmt, field, ()))
        for part in getattr(stmt, "handlers", []) + getattr(stmt, "cases", []):
            todo.extend(part.body)
    function._gather_lint_attribute_stores = found
    return found


_CONTAINER_MUTATORS = {"append", "extend", "insert", "pop", "remove", "clear", "update", "setdefault", "popitem",
                       "add", "discard"}


def _appends(stmt) -> bool:
    """A statement `self.x.append(item)`."""
    return isinstance(stmt, ast.Expr) and container_mutation(stmt.value) and stmt.value.func.attr == "append" \
        and len(stmt.value.args) == 1 and not stmt.value.keywords


def container_mutation(call) -> bool:
    """`self.x.append(...)` and the other list, dict and set mutators, called on an attribute of self."""
    return isinstance(call, ast.Call) and isinstance(call.func, ast.Attribute) and call.func.attr in _CONTAINER_MUTATORS \
        and isinstance(call.func.value, ast.Attribute) and isinstance(call.func.value.value, ast.Name) \
        and call.func.value.value.id == "self"


def _copy_stored(stmt, name: str, method) -> bool:
    """`self.name = new` where the method binds `new` once, as `self.name` or a same-shape copy of it
    (`self.name.clone()`): in-place writes into the copy change its values, not its shape."""
    if not (isinstance(stmt, ast.Assign) and len(stmt.targets) == 1 and isinstance(stmt.value, ast.Name)):
        return False
    local = stmt.value.id
    bindings = [node for node in tree_walk.statements(method) if _binds(node, local)]
    if len(bindings) != 1 or not isinstance(bindings[0], ast.Assign) or len(bindings[0].targets) != 1 \
            or not isinstance(bindings[0].targets[0], ast.Name):
        return False
    value = bindings[0].value
    while isinstance(value, ast.Call) and isinstance(value.func, ast.Attribute) and value.func.attr in _SAME_SHAPE:
        value = value.func.value
    return isinstance(value, ast.Attribute) and value.attr == name and isinstance(value.value, ast.Name) \
        and value.value.id == "self"


def _binds(stmt, local: str) -> bool:
    """Whether a statement (re)binds the plain name `local`."""
    if isinstance(stmt, ast.Assign):
        targets = list(stmt.targets)
    elif isinstance(stmt, (ast.AnnAssign, ast.AugAssign, ast.For, ast.AsyncFor)):
        targets = [stmt.target]
    elif isinstance(stmt, (ast.With, ast.AsyncWith)):
        targets = [item.optional_vars for item in stmt.items if item.optional_vars is not None]
    else:
        return False
    return any(isinstance(n, ast.Name) and n.id == local for t in targets for n in ast.walk(t))


def _kept_update(stmt, name: str) -> bool:
    """`self.name = self.name.to(...)` (a chain of such methods): same tensor, same shape."""
    if not (isinstance(stmt, ast.Assign) and len(stmt.targets) == 1 and isinstance(stmt.targets[0], ast.Attribute)):
        return False
    value = stmt.value
    while isinstance(value, ast.Call) and isinstance(value.func, ast.Attribute) and value.func.attr in _SAME_SHAPE:
        value = value.func.value
    return value is not stmt.value and isinstance(value, ast.Attribute) and value.attr == name \
        and isinstance(value.value, ast.Name) and value.value.id == "self"


def held(value, how: str):
    """The fact other methods see: a RETYPED tensor keeps its shape, not its dtype. An empty list or
    dict is not kept: code outside the class fills it (`policy.rewards.append(r)` in a training loop)."""
    from ..dims import Shape
    from .values import SeqVal, TensorVal

    if how == GROWN:  # [] or deque(maxlen=n) (an empty sequence) grown by appends
        empty = _empty_container(value) or (type(value) is SeqVal and not value.items and not value.names)
        return GrowingList() if empty else None
    if _empty_container(value):
        return None
    if how == RETYPED and isinstance(value, TensorVal):
        return value.with_(dtype=None)
    if how == REWRITTEN:  # written through a copy: the values (zeros, id ranges) are gone
        return TensorVal(value.shape, value.dtype) if isinstance(value, TensorVal) else None
    if how == RANKED:  # rank_kept_stores: the sizes move, the rank stays
        shape = value.shape if isinstance(value, TensorVal) else None
        known = shape is not None and not shape.variadic
        return TensorVal(Shape((None,) * len(shape.dims))) if known else None
    return value


def _empty_container(value) -> bool:
    from .config import DictVal
    from .python_types import ListVal

    return (isinstance(value, ListVal) and not value.items) or (isinstance(value, DictVal) and not value.items)


def record_append(interp, node: ast.Call, item) -> None:
    """`self.history.append(x)` run under a caller's facts: what this append adds, joined over its runs (the
    function's own analysis, blind to its inputs, is no run of the program)."""
    module = getattr(interp, "module", None)
    if module is None or not interp.facts_from_calls:
        return
    appends = module.__dict__.setdefault("_appended", {})
    appends[id(node)] = item if id(node) not in appends else join(appends[id(node)], item)


def appended_item(interp, attr: str):
    """An item of `self.<attr>`, a list only appended to: what every `self.<attr>.append(x)` of the class added,
    once each append has run under a caller's facts and nothing outside the class appends to it; else None."""
    module, class_name = getattr(interp, "module", None), getattr(interp, "class_name", None)
    if module is None or class_name is None or class_name not in module.classes:
        return None
    cache = module.__dict__.setdefault("_append_sites", {})  # the class's appends, found once per attribute
    sites = cache.get((class_name, attr))
    if sites is None:
        sites = cache[(class_name, attr)] = [
            n for cls in module.class_and_bases(class_name) for n in ast.walk(cls) if isinstance(n, ast.Call)
            and isinstance(n.func, ast.Attribute) and n.func.attr == "append" and isinstance(n.func.value, ast.Attribute)
            and n.func.value.attr == attr and isinstance(n.func.value.value, ast.Name) and n.func.value.value.id == "self"]
    appends = module.__dict__.get("_appended", {})
    if not sites or any(id(n) not in appends for n in sites) or interp.source.text.count(f".{attr}.append(") != len(sites):
        return None
    return join_all([appends[id(n)] for n in sites])
