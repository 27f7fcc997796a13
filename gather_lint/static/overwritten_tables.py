"""GL025: a table built in __init__ replaced, in another method, by its own lookup with class labels.

Found by syntax, one class at a time: `self.A = self.A.gather(d, I)` (`index_select`, `torch.gather`,
`torch.index_select`, `torch.take_along_dim`, `self.A[I]`) in a method other than __init__, where
- __init__ assigns `self.A` a tensor it builds (`torch.tensor(weights)`, `torch.ones(n)`,
  `register_buffer("A", ...)`): the module's own table, not a cache it fills per call;
- no other method assigns `self.A` (a reset that rebuilds it each call would make the pattern deliberate),
  moving it to a device or dtype aside (`self.A = self.A.to(x.device)` keeps the table);
- the method runs per batch: `forward`, `__call__`, or one that returns a value (a method that only
  narrows the table to some classes, returning nothing, is a deliberate one-off);
- the index comes from an argument of the method named as class labels (`labels`, `targets`, `y`, ...:
  names.category_domain, not token or beam ids), directly or through locals made from it.
Beam search reorders its caches by `beam_idx` along the batch, keeping their meaning; those are not labels.
"""
from __future__ import annotations

import ast
import re
from typing import Dict, Iterator, Optional, Set, Tuple

from ..rules import gl025_table_overwritten_by_lookup as rule
from .names import category_domain
from .tree_walk import all_nodes, called_name, statements
from .text_scan import file_test

# `self.x = self.x.gather(` / `.index_select(` / `[`, or `self.x = torch.gather(self.x` written out (`\w++`: no
# shorter name is followed by `=`, so the engine gives back nothing at each `self.` it tries)
_SPELLED = re.compile(r"self\.(\w++)\s*=\s*(?:self\.\1\s*(?:\.\s*(?:gather|index_select|take_along_dim)\b|\[)"
                      r"|torch\.(?:gather|index_select|take_along_dim)\(\s*self\.\1\b)")
_LOOKUPS = {"gather": 1, "index_select": 1, "take_along_dim": 0}  # method: position of the index
# (an nn.Parameter is left out: torch refuses to assign a plain tensor over one, so that raises at once)
_BUILDERS = {"tensor", "as_tensor", "ones", "zeros", "full", "rand", "randn", "empty", "Tensor", "FloatTensor",
             "from_numpy", "linspace", "arange", "ones_like", "full_like", "stack", "cat", "log", "exp"}
# ids of tokens, beams or sequences: reorderings and vocabulary reads, not class picks
_TOKEN_IDS = re.compile(r"ids|.*(?:token|beam|input_ids|output_ids|generated_ids|prompt_ids|response_ids"
                        r"|completion_ids|answer_ids|chosen_ids|rejected_ids).*")


@file_test
def spelled_in(text: str) -> bool:
    return "self." in text and _SPELLED.search(text) is not None


def check_module(tree: ast.Module) -> Iterator[Tuple[ast.AST, object]]:
    for cls in statements(tree):  # a class is a statement: the expressions need no walk
        if isinstance(cls, ast.ClassDef):
            yield from _check_class(cls)


def _check_class(cls: ast.ClassDef) -> Iterator[Tuple[ast.AST, object]]:
    methods = [node for node in cls.body if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef))]
    init = next((m for m in methods if m.name == "__init__"), None)
    if init is None:
        return
    # a finding is a statement `self.A = <lookup of self.A>` of another method: most classes hold none, and
    # then __init__'s tables and every method's writes are never read
    if not any(_self_lookup(stmt) for method in methods if method is not init for stmt in statements(method)):
        return
    tables = _built_tables(init)
    if not tables:
        return
    writers: Dict[str, int] = {}
    for method in methods:
        if method is not init:
            for name in _assigned_attributes(method):
                writers[name] = writers.get(name, 0) + 1
    for method in methods:
        if method is init or not _computes_per_call(method):
            continue
        labels = _label_names(method)
        if not labels:
            continue
        for node in statements(method):  # _self_lookup reads assignments, statements all
            found = _self_lookup(node)
            if found is None:
                continue
            attribute, index = found
            if attribute not in tables or writers.get(attribute, 0) != 1:
                continue
            used = {n.id for n in ast.walk(index) if isinstance(n, ast.Name)} & set(labels)
            if used:
                root = labels[sorted(used)[0]]
                yield node, rule.overwritten(f"self.{attribute}", ast.unparse(node.value), root)


def _computes_per_call(method) -> bool:
    """forward / __call__, or a method returning a value: run for every batch. A method that only
    narrows the table (`def keep_classes(self, labels): self.w = self.w[labels]`) returns nothing."""
    return method.name in ("forward", "__call__") or any(
        isinstance(node, ast.Return) and node.value is not None for node in all_nodes(method))


def _built_tables(init) -> Set[str]:
    """Attributes __init__ sets to a tensor it builds, or registers as a buffer."""
    found = set()
    for node in all_nodes(init):
        if isinstance(node, ast.Assign) and called_name(node.value) in _BUILDERS:
            found.update(t.attr for t in node.targets if _is_self_attribute(t))
        elif isinstance(node, ast.Call) and called_name(node) == "register_buffer" and node.args \
                and isinstance(node.args[0], ast.Constant) and isinstance(node.args[0].value, str):
            found.add(node.args[0].value)
    return found


_MOVES = {"to", "cuda", "cpu", "type_as", "float", "double", "half", "detach", "contiguous"}


def _assigned_attributes(method) -> Iterator[str]:
    """The attributes the method assigns, but for moves that keep the table (`self.w = self.w.to(x.device)`)."""
    for node in all_nodes(method):
        if isinstance(node, ast.Assign) and len(node.targets) == 1 and _is_self_attribute(node.targets[0]) \
                and _moved(node.value, node.targets[0].attr):
            continue
        targets = node.targets if isinstance(node, ast.Assign) else (
            [node.target] if isinstance(node, (ast.AugAssign, ast.AnnAssign)) else [])
        for target in targets:
            for sub in ast.walk(target):
                if _is_self_attribute(sub) and isinstance(sub.ctx, ast.Store):
                    yield sub.attr


def _moved(value, attribute: str) -> bool:
    """`self.A.to(device)`, `self.A.cuda()`, `self.A.type_as(x)`: the same table elsewhere."""
    return isinstance(value, ast.Call) and isinstance(value.func, ast.Attribute) and value.func.attr in _MOVES \
        and (_is_attribute(value.func.value, attribute) or _moved(value.func.value, attribute))


def _label_names(method) -> Dict[str, str]:
    """{name: the label argument it comes from} for the method's class-label arguments and locals made from them."""
    args = method.args
    params = [a.arg for a in args.posonlyargs + args.args + args.kwonlyargs]
    found = {p: p for p in params if category_domain(p) is not None and category_domain(p).category
             and not _TOKEN_IDS.fullmatch(p)}
    if not found:
        return {}
    assigns = [n for n in all_nodes(method) if isinstance(n, ast.Assign)]
    grown = True
    while grown:
        grown = False
        for node in assigns:
            sources = [n.id for n in ast.walk(node.value) if isinstance(n, ast.Name) and n.id in found]
            if not sources:
                continue
            for target in node.targets:
                if isinstance(target, ast.Name) and target.id not in found:
                    found[target.id] = found[sources[0]]
                    grown = True
    return found


def _self_lookup(node) -> Optional[Tuple[str, ast.AST]]:
    """(attribute, index expression) of `self.A = <lookup of self.A>`."""
    if not isinstance(node, ast.Assign) or len(node.targets) != 1 or not _is_self_attribute(node.targets[0]):
        return None
    attribute, value = node.targets[0].attr, node.value
    if isinstance(value, ast.Subscript) and _is_attribute(value.value, attribute) and not isinstance(value.slice, (ast.Slice, ast.Constant)):
        return attribute, value.slice
    if not isinstance(value, ast.Call) or not isinstance(value.func, ast.Attribute):
        return None
    name = value.func.attr
    if name not in _LOOKUPS:
        return None
    keyword = next((k.value for k in value.keywords if k.arg in ("index", "indices")), None)
    if isinstance(value.func.value, ast.Name) and value.func.value.id == "torch":
        if not value.args or not _is_attribute(value.args[0], attribute):
            return None
        position = _LOOKUPS[name] + 1
    elif _is_attribute(value.func.value, attribute):
        position = _LOOKUPS[name]
    else:
        return None
    index = keyword if keyword is not None else (value.args[position] if len(value.args) > position else None)
    return (attribute, index) if index is not None else None


def _is_self_attribute(node) -> bool:
    return isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id == "self"


def _is_attribute(node, attribute: str) -> bool:
    return _is_self_attribute(node) and node.attr == attribute
