"""Whether a file runs as a script: a driver that calls its own functions and classes.

The driver is often an `if __name__ == "__main__":` block, but a script may as well run the same
statements at module level, without the guard (`model = QNet(4, 2)` then `print(model(obs))` at column 0).
Either way the driver is a caller with known sizes, and the file's checks treat it alike.
"""
from __future__ import annotations

import ast
import bisect
import re
from typing import Iterable, List, Set, Tuple

from .text_scan import file_test

_GUARD = "__main__"
# Both read a line's start as the `\n` before it, in the text with a `\n` put before it: a pattern that starts
# with a literal is searched from one `\n` to the next, where `^` under re.M was tried at every position
_DEFINED = re.compile(r"\n(?:async[ \t]+def|def|class)[ \t]+(\w+)")
# a statement at column 0 that is no definition, decorator, import, comment or string: a driver's line
_TOP_STATEMENT = re.compile(r"\n((?![ \t\r\n#@'\"]|(?:async|def|class|import|from|if|elif|else|for|while|with|try|except|finally|return)\b)"
                            r"[^\n]*)")
_CALLED = re.compile(r"\b(\w+)[ \t]*\(")
_DEFS = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)


@file_test
def is_script(text: str) -> bool:
    """A `__main__` driver, or module-level statements that call a function or class the file defines."""
    return holds_driver(text, set(_DEFINED.findall("\n" + text)))


def holds_driver(chunk: str, defined: Iterable[str]) -> bool:
    """Whether `chunk` (a file, or a block of it) holds a driver: a `__main__` guard, or column-0
    statements that call one of `defined`."""
    return _GUARD in chunk or drives(chunk, defined)


def drives(text: str, defined: Iterable[str]) -> bool:
    """Whether a column-0 statement of `text` calls one of `defined` (a block of module-level statements)."""
    defined = defined if isinstance(defined, (set, frozenset)) else set(defined)
    if not defined:
        return False
    # the lines joined: no name or call spans a line's end, so one findall reads what one per line read
    if defined.isdisjoint(_CALLED.findall("\n".join(_TOP_STATEMENT.findall("\n" + text)))):
        return False  # most files and blocks: no column-0 line calls one
    # a line of prose in a docstring is no statement (`Base classes ... PreTrainedTokenizerBase (host ...`)
    text = "\n" + text
    strings = _long_strings(text)
    return any(not _inside(line.start(1), strings) for line in _TOP_STATEMENT.finditer(text)
               if not defined.isdisjoint(_CALLED.findall(line.group(1))) and not _REGISTRY.match(line.group(1)))


# a module constant or registry entry, not a driver's line: `ATTENTION: Interface = Interface()`,
# `_TABLES["q"] = _to_mat(...)`, `DEFAULT_CONFIG = make_config()`
_REGISTRY = re.compile(r"(?:[A-Z_][A-Z0-9_]*|\w+[ \t]*:[^=\n]*|\w+\[[^\n]*?\])[ \t]*=(?!=)")


# comments and string literals, in the order the tokenizer meets them: a quote inside a comment or inside
# another string starts nothing
_STRINGS = re.compile(r'#[^\n]*|"""(?:\\.|[^\\])*?"""|' r"'''(?:\\.|[^\\])*?'''"
                      r'|"(?:\\.|[^"\\\n])*"' r"|'(?:\\.|[^'\\\n])*'", re.DOTALL)


def _long_strings(text: str) -> List[Tuple[int, int]]:
    """(start, end) of each triple-quoted string of `text`, in order."""
    return [m.span() for m in _STRINGS.finditer(text) if m.group().startswith(('"""', "'''"))]


def _inside(at: int, spans: List[Tuple[int, int]]) -> bool:
    """Whether position `at` lies within one of the (ordered, disjoint) spans."""
    i = bisect.bisect_right(spans, (at, at)) - 1  # the last span starting at or before `at`
    return i >= 0 and spans[i][0] < at < spans[i][1]


def is_guard(node: ast.AST) -> bool:
    """`if __name__ == "__main__":`."""
    return isinstance(node, ast.If) and _GUARD in ast.dump(node.test)


def runs_as_script(tree: ast.Module) -> bool:
    """The parsed module's form of is_script: a guard, or a module-level statement calling a function or
    class of the module (`Ops.f(x)` included) that is no constant or registry entry."""
    defined: Set[str] = {node.name for node in tree.body if isinstance(node, _DEFS)}
    for node in tree.body:
        if is_guard(node):
            return True
        if isinstance(node, (*_DEFS, ast.Import, ast.ImportFrom, ast.AnnAssign)) or not defined or _registers(node):
            continue
        for sub in ast.walk(node):
            if isinstance(sub, ast.Call) and _callee_name(sub.func) in defined:
                return True
    return False


def driver_functions(tree: ast.Module) -> Set[str]:
    """Module functions the `__main__` guard calls with no arguments (`main()`): they run the script as its
    module body would, so what they call runs with its own defaults as the body's calls do."""
    defined = {node.name for node in tree.body if isinstance(node, _DEFS)}
    found: Set[str] = set()
    for node in tree.body:
        if is_guard(node):
            found.update(sub.func.id for sub in ast.walk(node) if isinstance(sub, ast.Call) and isinstance(sub.func, ast.Name)
                         and sub.func.id in defined and not sub.args and not sub.keywords)
    return found


def _registers(node: ast.AST) -> bool:
    """A module constant or registry entry (the text form's _REGISTRY): every target an ALL_CAPS name or a subscript."""
    return isinstance(node, ast.Assign) and all(
        isinstance(target, ast.Subscript) or isinstance(target, ast.Name) and _CONSTANT_NAME.fullmatch(target.id)
        for target in node.targets)


_CONSTANT_NAME = re.compile(r"[A-Z_][A-Z0-9_]*")


def _callee_name(func: ast.AST) -> str:
    """`f` of f(...), `Ops` of Ops.f(...)."""
    if isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name):
        return func.value.id
    return func.id if isinstance(func, ast.Name) else ""
