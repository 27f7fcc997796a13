"""GL013 at run time: a count written as an overwrite.

`counts[ids] = 1`, `counts.index_put_((ids,), ones)` or `counts.scatter_(0, ids, ones)` into a zeros buffer
writes one constant at every position it is given: a position given k times holds that constant, not k of
it. Ones also mark presence (a one-hot, a mask, a set of seen ids), which is correct code with the very
same values, so the values alone never decide: as the static rule has it, the buffer's name at the user's
line must say that it counts (`counts`, `hist`, `freq`, `num_...`). Then the values must show the loss:
the buffer all zeros before the write, one nonzero constant written, and positions that do repeat.
"""
from __future__ import annotations

import ast
import linecache
from typing import Optional, Sequence

import torch

from ..contract import WARNING, Violation
from ..rules import gl013_overwriting_accumulate as gl013
import gather_lint.runtime.values as values
from gather_lint.runtime.overwrite_checks import repeats
from .location import user_frame_object


def _constant(value) -> Optional[float]:
    """The one value written everywhere (a number, or a tensor holding one value throughout); None otherwise."""
    if isinstance(value, bool):
        return None
    if isinstance(value, (int, float)):
        return value
    if type(value) is not torch.Tensor or value.numel() == 0 or value.dtype == torch.bool or value.is_complex() \
            or not values.has_values(value):
        return None
    flat = value.reshape(-1)
    first = flat[0]
    if not bool((flat == first).all()):
        return None
    return first.item()


def _count_buffer(x: torch.Tensor) -> bool:
    return type(x) in (torch.Tensor, torch.nn.Parameter) and x.dtype != torch.bool and not x.is_complex() \
        and x.numel() > 0 and values.has_values(x) and not bool(x.any())


def _named_counts(methods: Sequence[str]) -> Optional[str]:
    """The name of the buffer written at the user's line when it says it counts: the receiver of one
    `.method(...)` call among `methods`, or the subscripted name of one `name[...] = v` assignment."""
    frame = user_frame_object()
    if frame is None:
        return None
    lines = linecache.getlines(frame.f_code.co_filename, frame.f_globals)
    if not 0 < frame.f_lineno <= len(lines):
        return None
    try:
        tree = ast.parse(lines[frame.f_lineno - 1].strip())
    except SyntaxError:
        return None
    found = []
    for node in ast.walk(tree):
        if methods and isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) \
                and node.func.attr in methods:
            found.append(node.func.value)
        elif not methods and isinstance(node, ast.Assign) and len(node.targets) == 1 \
                and isinstance(node.targets[0], ast.Subscript):
            found.append(node.targets[0].value)
    if len(found) != 1:
        return None
    receiver = found[0]
    name = receiver.id if isinstance(receiver, ast.Name) else (receiver.attr if isinstance(receiver, ast.Attribute) else "")
    from ..static.overwrite_writes import _COUNT_NAME  # the static rule's reading of a counting name (no torch)
    return name if name and _COUNT_NAME.search(name) else None


def _number(value: float) -> str:
    return f"{value:.4g}" if isinstance(value, float) and not value.is_integer() else str(int(value))


def _violation(write: str, name: str, constant: float, hits: tuple, fix: str) -> Violation:
    writes, distinct, position, times = hits
    c = _number(constant)
    held = f"{times}" if c == "1" else f"{times} * {c}"
    return Violation(
        gl013.CODE, WARNING,
        f"`{write}` writes {c} into the zeros buffer `{name}` at {writes} positions of which {distinct} are distinct "
        f"(position {position} is given {times} times): a write without accumulating keeps one {c} per position, so "
        f"`{name}` holds {c} there, not {held}, and every count is capped at {c}, silently; count with {fix} "
        f"(or torch.bincount)",
    )


def assigned(x: torch.Tensor, found, value, put: bool, flat: bool = False) -> Optional[Violation]:
    """`counts[ids] = 1` / `counts.index_put_((ids,), ones)` / `counts.put_(ids, ones)` (flat: x flattened):
    found is [(dim, index)] on x's leading dims."""
    if len(found) != 1 or found[0][0] != 0 or x.dim() != 1 or not _count_buffer(x):
        return None
    index = found[0][1]
    if index.is_floating_point() or index.device != x.device or not values.has_values(index):
        return None
    if isinstance(value, torch.Tensor) and value.device != x.device:
        return None
    constant = _constant(value)
    if constant is None or constant == 0:
        return None
    size = x.shape[0]
    if bool(((index < -size) | (index >= size)).any()):
        return None  # torch raises
    hits = repeats((index.reshape(-1).long() % size))
    if hits is None:
        return None
    name = _named_counts(("put_", "put") if flat else ("index_put_", "index_put") if put else ())
    if name is None:
        return None
    if flat:
        return _violation(f"{name}.put_(index, v)", name, constant, hits, f"`{name}.put_(index, v, accumulate=True)`")
    write = f"{name}.index_put_((index,), v)" if put else f"{name}[index] = v"
    return _violation(write, name, constant, hits, f"`{name}.index_put_((index,), v, accumulate=True)`")


def scattered(site, bound: dict) -> Optional[Violation]:
    """`counts.scatter_(0, ids, ones)` (or `1`) without reduce into a zeros buffer, along a 1-d index."""
    inp, index = bound.get("input"), bound.get("index")
    if site.op.name != "scatter" or bound.get("reduce") is not None or not isinstance(index, torch.Tensor) \
            or index.dim() != 1 or inp.dim() != 1 or not _count_buffer(inp):
        return None
    value = bound.get("src", bound.get("value"))
    if isinstance(value, torch.Tensor) and (value.device != index.device or value.dim() != 1):
        return None
    constant = _constant(value[:index.shape[0]] if isinstance(value, torch.Tensor) else value)
    if constant is None or constant == 0:
        return None
    if bool(((index < 0) | (index >= inp.shape[0])).any()):
        return None  # torch raises
    hits = repeats(index.long())
    if hits is None:
        return None
    tail = "_" if site.op.in_place else ""
    name = _named_counts((f"scatter{tail}",))
    if name is None:
        return None
    return _violation(f"{name}.scatter{tail}({site.dim}, index, src)", name, constant, hits,
                      f"`{name}.scatter_add{tail}({site.dim}, index, src)`")
