"""`import torch as T` / `import torch as th`: the alias read as the name `torch`.

Many checks recognise a torch function by its spelling (`torch.arange(...)`, `torch.gather(...)`); a file
that imports torch under another name means the same code. Each parsed tree has the alias's names
rewritten to `torch` (positions unchanged, so messages and fixes still quote the file's own text), when
the file never binds the alias to anything else: a name that is also a parameter, a loop variable or an
assignment target (`T = x.size(1)`) is left as written.
"""
from __future__ import annotations

import ast
import re
from typing import FrozenSet

from .text_scan import current_file, file_test

_IMPORT = re.compile(r"^[ \t]*import[ \t]+torch[ \t]+as[ \t]+(\w+)[ \t]*(?:#.*)?$", re.M)


@file_test
def of(text: str) -> FrozenSet[str]:
    """The names `text` imports torch as, that it binds nowhere else."""
    if "import torch as" not in text and "import  torch" not in text:
        return frozenset()
    found = set(_IMPORT.findall(text)) - {"torch"}
    return frozenset(name for name in found if not _rebound(text, name))


def _rebound(text: str, name: str) -> bool:
    """Whether `text` may bind `name` other than by `import torch as name` (read generously: a comment
    that looks like a binding leaves the alias alone, which only costs the alias)."""
    word = rf"(?<![\w.]){re.escape(name)}\b(?![ \t]*\.)"
    binding = re.compile(
        rf"{word}[ \t]*(?::[^=\n]*)?=(?!=)"  # T = ..., T: int = ..., f(T=...)
        rf"|{word}[ \t]*,[^\n]*?(?<![=!<>])=(?!=)"  # T, B = x.shape
        rf"|,[ \t]*{word}[^\n]*?(?<![=!<>])=(?!=)"  # B, T = x.shape
        rf"|\bfor\b[^\n]*?{word}[^\n]*?\bin\b"  # for T in ...
        rf"|\bas[ \t]+{word}"  # with ... as T, except ... as T, import other as T
        rf"|\bdef[ \t]+\w+[ \t]*\([^)]*{word}"  # a parameter
        rf"|\blambda\b[^:\n]*{word}"
        rf"|\b(?:global|nonlocal|def|class)[ \t]+{word}")
    imports = len(re.findall(rf"^[ \t]*import[ \t]+torch[ \t]+as[ \t]+{re.escape(name)}\b", text, re.M))
    return sum(1 for _ in binding.finditer(text)) > imports


def expanded(text: str) -> str:
    """`text` with every alias of torch the file being read imports written `torch` (`T.sum(` -> `torch.sum(`),
    for text tests that spell torch's functions; lines stay where they were, columns do not."""
    names = of(current_file()) | of(text)
    if not names:
        return text
    return re.sub(rf"(?<![\w.])(?:{'|'.join(map(re.escape, sorted(names)))})(?=[ \t]*\.)", "torch", text)


def spelled_in(chunk: str, names: FrozenSet[str]) -> bool:
    """Whether a part of the file uses torch: by its name, through an alias (`T.arange`), or by a method only
    tensors have (`bev = points.new_zeros(...)` in a function that never spells torch)."""
    return "torch" in chunk or any(f"{name}." in chunk for name in names) or any(m in chunk for m in _TENSOR_ONLY)


# methods no other common type has: a part calling one works on tensors
_TENSOR_ONLY = (".new_zeros(", ".new_ones(", ".new_full(", ".new_empty(", ".new_tensor(", ".index_put_(")


def normalise(tree: ast.AST, names: FrozenSet[str]) -> ast.AST:
    """Rename every read of an alias in `tree` to `torch` (in place)."""
    if names:
        for node in ast.walk(tree):
            if isinstance(node, ast.Name) and node.id in names:
                node.id = "torch"
    return tree
