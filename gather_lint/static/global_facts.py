"""Module-level names a function reads: `table = torch.randn(vocab, dim)` or `block_size = 8` at the
top of a script, read inside `def lookup(ids): table.gather(...)`.

A function sees the binding its module holds when it runs. A name the module binds once, outside
loops, that no function rebinds (`global`) has one value whenever it can be read at all, the one
the module body's analysis ends with. Only the file's top-level functions and methods are given
them (a nested function's free names may be its enclosing function's), and only names the whole
text shows bound once: the analysis may have parsed only some of the file's blocks."""
from __future__ import annotations

import re
import weakref
from typing import Dict

from . import closure_facts, modules
from .config import DictVal
from .scalars import NumberVal
from .values import DimVal, Literal, SeqVal, TensorVal


def capture(module, interp, tree) -> None:
    """Before the module body runs: where functions will read the module's names, as the body's
    analysis goes (a driver calls functions before the body ends; a name bound by then has its value)."""
    module.global_body = weakref.ref(interp)  # the body's interpreter holds the module: no cycle to collect
    module.global_tree = tree
    module.global_once = None  # the names bound once: found on first need
    module.global_text = interp.source.text


def bind(interp, function) -> None:
    """Before a top-level function or method runs: the module facts of the names it reads freely."""
    module = interp.module
    body = getattr(module, "global_body", None)
    body = body() if body is not None else None
    if body is None or body is interp:
        return
    if function not in module.class_of and module.functions.get(function.name) is not function:
        return
    # a library's module names are mostly loggers and constants: no walk of the module body (for the names
    # it binds once) nor of the function for them (a name the body never bound has no fact to give)
    informative = [name for name, value in body.env.items() if name not in body.informal and (
        _informative(value) or _unchanged_record(module, name, value))]
    if not informative:
        return
    if module.global_once is None:
        # `global x` in a function is found by the text check, not by a walk of every class
        module.global_once = closure_facts.bound_once_in(module.global_tree.body, (), look_inside=False)[0]
    candidates = [name for name in informative if name in module.global_once]
    if not candidates:
        return
    cache = module.__dict__.setdefault("_free_names", {})
    free = cache.get(function)
    if free is None:
        lines = interp.source.lines[function.lineno - 1:function.end_lineno]
        if not any(name in line for name in candidates for line in lines):
            return  # the walk for free names only where the function's text spells a candidate
        free = cache[function] = closure_facts.free_names(function)
    for name in candidates:
        if name in free and name not in interp.env and _bound_once_in_text(module, name):
            interp.env[name] = body.env[name]


def _unchanged_record(module, name: str, value) -> bool:
    """A module-level config dict (`CFG = {"obs_dim": 6, ...}`) or list of names and numbers (`CLASSES =
    ["brain", "eye", ...]`) that no line of the file writes into or mutates: every function reads the values
    it was written with (and `len(CLASSES)` is their count)."""
    if isinstance(value, DictVal):
        items = [v for _, v in value.items]
    elif isinstance(value, SeqVal) and not value.names and value.items:
        items = value.items
    else:
        return False
    kinds: Dict[int, tuple] = module.__dict__.setdefault("_python_records", {})  # asked before every function runs
    known = kinds.get(id(value))
    if known is None or known[0] is not value:  # (the value itself kept: an id is only unique while it lives)
        known = kinds[id(value)] = (value, any(v is not None for v in items) and all(_python_data(v) for v in items))
    if not known[1]:
        return False  # a dict of tensors is state that other code keeps rewriting, not a config
    cache: Dict[str, bool] = module.__dict__.setdefault("_unchanged_records", {})
    if name not in cache:
        word = re.escape(name)
        mutation = re.compile(rf"\b{word}\s*\[[^\]\n]*\]\s*(?:[-+*/|&]?=)(?!=)|\b{word}\s*[-+*|]=|\b{word}\s*\.\s*"
                              rf"(?:update|setdefault|pop|popitem|clear|__setitem__|append|extend|insert|remove)\s*\(")
        cache[name] = mutation.search(module.global_text) is None
    return cache[name]


def _python_data(value) -> bool:
    """Numbers, strings, flags and tuples of them: what a config holds."""
    if value is None or isinstance(value, (DimVal, Literal, NumberVal)):
        return True
    return isinstance(value, SeqVal) and not value.names and all(_python_data(v) for v in value.items)


def _informative(value) -> bool:
    if not closure_facts.carriable(value):
        return False  # a module's list or dict: any function may fill it
    if isinstance(value, TensorVal):
        return value.shape is not None or value.dtype is not None or value.domain is not None
    if isinstance(value, DimVal):
        return value.dim is not None
    if modules.is_layer(value) or isinstance(value, modules.InstanceVal) and value.facts is not None:
        return True  # a script's `model = nn.Sequential(...)` that its functions call
    return isinstance(value, SeqVal) and any(_informative(v) for v in value.items)


def _bound_once_in_text(module, name: str) -> bool:
    """Every line of the file that could bind `name` is one line at column 0 (cached per name)."""
    cache: Dict[str, bool] = module.__dict__.setdefault("_global_text_checks", {})
    if name not in cache:
        word = re.escape(name)
        binding = re.compile(rf"\b{word}\b[^=\n]*(?<![=!<>])=(?!=)|\b(?:for|as|global|nonlocal|import|def|class)\b[^\n]*\b{word}\b"
                             rf"|\b{word}\s*:=")
        lines = [line for line in module.global_text.splitlines() if name in line and _binds(binding, line)]
        cache[name] = len(lines) == 1 and re.match(rf"{word}\s*(?::[^=\n]*)?=(?!=)", lines[0]) is not None
    return cache[name]


def _binds(binding, line: str) -> bool:
    """The line binds the name: a match not inside a call's parentheses (`f(CFG["w"], minlength=48)` reads CFG,
    and its `=` is a keyword argument's)."""
    found = binding.search(line)
    if found is None:
        return False
    before = line[:found.start()]
    return before.count("(") <= before.count(")")
