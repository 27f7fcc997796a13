"""GL013 for hand-written backwards of lookups (`torch.autograd.Function` with `ctx.save_for_backward`).

The forward of a custom autograd Function saves its index with `ctx.save_for_backward(index)`; the
backward reads it back from `ctx.saved_tensors`, so the index the backward writes the gradient at is
the one the forward's lookup read with (`table.gather(0, rows)`, `index_select`, `embedding`,
`table[ids]`). A lookup may read one position several times, and the gradient of that position is
the sum over its reads: `scatter_`, `index_copy_`, `index_put_` without `accumulate=True` and
`grad[ids] = g` keep one write per repeated position instead (the bug of the first gather backward).

A finding needs all of: an index saved in the forward that reaches a lookup's index there (through
local assignments such as `rows = index.unsqueeze(-1).expand(...)`), not made unique there (argsort,
randperm, topk, arange); the backward writing, without accumulation, into a buffer it made from zeros,
at positions computed from that saved index, values computed from its incoming gradient.
"""
from __future__ import annotations

import ast
from typing import Dict, Iterator, List, Optional, Set, Tuple

from ..rules import gl013_overwriting_accumulate as overwrite
from ..suggest import method_call
from . import repeat_evidence, tree_walk
from .tree_walk import last_name
from .text_scan import file_test

_SAVED = ("saved_tensors", "saved_variables")
_ZEROS = ("zeros", "zeros_like", "new_zeros")
_UNIQUE = ("argsort", "sort", "randperm", "topk", "arange", "unique")  # positions that cannot repeat
# lookup name -> position of the index among the call's arguments (after the receiver for methods)
_METHOD_LOOKUPS = {"gather": 1, "index_select": 1, "take_along_dim": 0}
_FUNCTION_LOOKUPS = {"gather": 2, "index_select": 2, "take_along_dim": 1, "embedding": 0}
_ADDERS = {"scatter_": "scatter_add_", "scatter": "scatter_add", "index_copy_": "index_add_", "index_copy": "index_add"}


@file_test
def spelled_in(text: str) -> bool:
    """Only files with a custom Function's backward (reading what its forward left on ctx) can hold the pattern."""
    return "def backward" in text and "ctx" in text  # the rarer word first: one scan of most files


def check_module(tree: ast.Module) -> Iterator[Tuple[ast.AST, object]]:
    nodes = repeat_evidence.ModuleNodes(tree)
    for cls in tree_walk.statements(tree):  # classes are statements: no walk of the expressions
        if isinstance(cls, ast.ClassDef) and any(last_name(base) == "Function" for base in cls.bases):
            methods = {node.name: node for node in cls.body if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef))}
            if "forward" in methods and "backward" in methods:
                yield from _check_backward(methods["forward"], methods["backward"],
                                           lambda name: repeat_evidence.argument_repeats(nodes, cls.name, methods["forward"], name))


def _check_backward(forward, backward, repeats) -> Iterator[Tuple[ast.AST, object]]:
    # only an index known to repeat: unpadding positions (`nonzero` of a mask) are unique, and their
    # backward may well scatter without accumulating
    looked_up = _saved_lookup_indices(forward, repeats)
    if not looked_up:
        return
    params = [a.arg for a in backward.args.args]
    if not params:
        return
    ctx, grads = params[0], set(params[1:])
    saved = _unpacked_saved(backward, ctx)
    saved.update({f"{ctx}.{slot}": slot for slot in looked_up if isinstance(slot, str)})  # ctx.index = index
    indices = {name: looked_up[slot] for name, slot in saved.items() if slot in looked_up}
    if not indices or not grads:
        return
    reach = {name: _derived(backward, {name}) for name in indices}
    from_grad = _derived(backward, grads, through_fills=False)
    zeros = _zeros_buffers(backward)
    for node in ast.walk(backward):
        found = _write(node, zeros)
        if found is None:
            continue
        write, positions, values, adder = found
        lookup = next((indices[name] for name in indices if _names(positions) & reach[name]), None)
        if lookup is None or not _names(values, through_fills=False) & from_grad:
            continue
        yield node, overwrite.check_backward_overwrite(
            write, ast.unparse(positions), ast.unparse(lookup), lookup.lineno, adder)


def _saved_lookup_indices(forward, repeats) -> Dict[object, ast.AST]:
    """{slot in ctx.save_for_backward(...), or the name of a ctx attribute: the forward's lookup} for what
    the forward saves and its lookups index with, when `repeats(name)` says the saved index can repeat."""
    ctx = forward.args.args[0].arg if forward.args.args else None
    saves = [node for node in ast.walk(forward) if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
             and node.func.attr == "save_for_backward" and last_name(node.func.value) == ctx]
    if len(saves) > 1:
        return {}
    saved = list(enumerate(saves[0].args)) if saves else []
    saved += [(target.attr, node.value) for node in ast.walk(forward) if isinstance(node, ast.Assign)
              for target in node.targets if isinstance(target, ast.Attribute) and last_name(target.value) == ctx]
    unique = {name for node in ast.walk(forward) if isinstance(node, ast.Assign) and _makes_unique(node.value)
              for target in node.targets for name in _names(target)}
    found: Dict[object, ast.AST] = {}
    for slot, value in saved:
        if not isinstance(value, ast.Name) or value.id in unique or not repeats(value.id):
            continue
        reach = _derived(forward, {value.id}) - (unique - {value.id})
        for call, index in _lookups(forward):
            if _names(index) & reach:
                found[slot] = call
                break
    return found


def _lookups(scope) -> List[Tuple[ast.AST, ast.AST]]:
    """(lookup node, its index expression) for gathers, index_select, take_along_dim, embedding, x[ids]."""
    out = []
    for node in ast.walk(scope):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
            receiver, name = node.func.value, node.func.attr
            module_call = last_name(receiver) in ("torch", "F", "functional")
            at = (_FUNCTION_LOOKUPS if module_call else _METHOD_LOOKUPS).get(name)
            keyword = "index" if name != "embedding" else "input"
            index = next((k.value for k in node.keywords if k.arg in (keyword, "indices")), None)
            if index is None and at is not None and len(node.args) > at:
                index = node.args[at]
            if index is not None:
                out.append((node, index))
        elif isinstance(node, ast.Subscript) and isinstance(node.ctx, ast.Load) and isinstance(node.slice, ast.Name):
            out.append((node, node.slice))
    return out


def _unpacked_saved(backward, ctx: str) -> Dict[str, int]:
    """{name: slot} for `a, b = ctx.saved_tensors`, `(a,) = ctx.saved_tensors`, `a = ctx.saved_tensors[0]`."""
    out: Dict[str, int] = {}
    for node in ast.walk(backward):
        if not isinstance(node, ast.Assign) or len(node.targets) != 1:
            continue
        target, value = node.targets[0], node.value
        if _is_saved(value, ctx) and isinstance(target, (ast.Tuple, ast.List)):
            for slot, item in enumerate(target.elts):
                if isinstance(item, ast.Name):
                    out[item.id] = slot
        elif isinstance(value, ast.Subscript) and _is_saved(value.value, ctx) and isinstance(target, ast.Name) \
                and isinstance(value.slice, ast.Constant) and isinstance(value.slice.value, int):
            out[target.id] = value.slice.value
    return out


def _is_saved(node, ctx: str) -> bool:
    return isinstance(node, ast.Attribute) and node.attr in _SAVED and last_name(node.value) == ctx


def _derived(scope, roots: Set[str], through_fills: bool = True) -> Set[str]:
    """The roots and every name assigned from an expression that uses one of them (to a fixed point).
    `through_fills=False`: `torch.zeros_like(grad)` carries grad's shape, not its values."""
    assigns = [(node.targets, node.value) for node in ast.walk(scope) if isinstance(node, ast.Assign)]
    assigns += [([node.target], node.value) for node in ast.walk(scope)
                if isinstance(node, (ast.AnnAssign, ast.AugAssign)) and node.value is not None]
    found = set(roots)
    grown = True
    while grown:
        grown = False
        for targets, value in assigns:
            if _names(value, through_fills) & found:
                for target in targets:
                    new = {n for n in _names(target) if n not in found and isinstance(target, (ast.Name, ast.Tuple, ast.List))}
                    if new:
                        found |= new
                        grown = True
    return found


def _zeros_buffers(scope) -> Set[str]:
    """Names assigned straight from zeros (`torch.zeros(...)`, `g.new_zeros(...)`, `torch.zeros_like(t)`)."""
    return {node.targets[0].id for node in ast.walk(scope)
            if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name)
            and _is_zeros(node.value)}


def _is_zeros(node) -> bool:
    return isinstance(node, ast.Call) and last_name(node.func) in _ZEROS


def _write(node, zeros: Set[str]) -> Optional[Tuple[str, ast.AST, ast.AST, str]]:
    """(write text, positions, values, accumulating form) of a write that keeps one value per position."""
    if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Subscript):
        target = node.targets[0]
        if isinstance(target.value, ast.Name) and target.value.id in zeros:
            x, key = target.value.id, ast.unparse(target.slice)
            return (f"{x}[{key}] = ...", target.slice, node.value,
                    method_call(x, f"index_put_({overwrite.index_tuple(key)}, ..., accumulate=True)"))
        return None
    if not isinstance(node, ast.Call) or not isinstance(node.func, ast.Attribute):
        return None
    receiver, name = node.func.value, node.func.attr
    if not ((isinstance(receiver, ast.Name) and receiver.id in zeros) or _is_zeros(receiver)):
        return None
    x = ast.unparse(receiver)
    if name in _ADDERS and len(node.args) >= 3 and not any(k.arg == "reduce" for k in node.keywords) \
            and not isinstance(node.args[2], ast.Constant):
        return f"{x}.{name}(...)", node.args[1], node.args[2], method_call(x, f"{_ADDERS[name]}(...)")
    if name in ("index_put_", "index_put") and len(node.args) == 2 and not node.keywords:
        return f"{x}.{name}(...)", node.args[0], node.args[1], method_call(x, f"{name}(..., accumulate=True)")
    return None


def _makes_unique(node) -> bool:
    return any(isinstance(n, ast.Call) and last_name(n.func) in _UNIQUE for n in ast.walk(node))


_FILLS = ("zeros", "zeros_like", "new_zeros", "ones", "ones_like", "new_ones", "full", "full_like", "new_full",
          "empty", "empty_like", "new_empty")


def _names(node, through_fills: bool = True) -> Set[str]:
    """Names used in node; without `through_fills`, not those only inside a fill (`ones_like(g)`)."""
    if not through_fills and isinstance(node, ast.Call) and last_name(node.func) in _FILLS:
        return set()
    if through_fills or not any(isinstance(n, ast.Call) for n in ast.walk(node)):
        return {_dotted(n) for n in ast.walk(node) if _dotted(n)}
    found: Set[str] = set()
    for child in ast.iter_child_nodes(node):
        found |= _names(child, through_fills)
    if _dotted(node):
        found.add(_dotted(node))
    return found


_dotted = tree_walk.env_key  # `x` for a name, `ctx.index` for an attribute of a name (what a forward leaves on ctx).
