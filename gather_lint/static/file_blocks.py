"""A file's top-level blocks (a def, a class, the statements between them), each parsed at most once.

Parsing is most of the cost of a file, and most blocks of a model file never touch what a rule reads:
parse_relevant parses the blocks it keeps, and a syntax-only check asks for the blocks spanning the lines
its patterns match, or for the whole file; a block parsed for one is not parsed again for another. Each
block is parsed at its own line numbers.
"""
from __future__ import annotations

import ast
import bisect
import re
import sys
import threading
import warnings
import weakref
from typing import Callable, Dict, Iterable, List, Optional

from . import torch_aliases

_INSIDE_BLOCK = frozenset(" \t)]}")  # first characters of lines that continue a block
_BLOCK_START = re.compile(r"^(?:@|def |async def |class )")


class FileBlocks:
    def __init__(self, text: str, path: str):
        self.text, self.path = text, path
        self.lines = text.splitlines(keepends=True)
        self.starts = block_starts(self.lines)  # 0-based first line of each block
        self.ends = self.starts[1:] + [len(self.lines)]
        self._bodies: Dict[int, list] = {}
        self._whole: Optional[ast.Module] = None
        self._kept: Optional[Callable[[], Optional[ast.Module]]] = None

    @property
    def kept(self) -> Optional[ast.Module]:
        """parse_relevant's tree: the answer when the file does not parse whole. Held weakly: the tree holds
        its blocks (`file_blocks`), and a cycle would leave every parsed file to the cycle collector."""
        return self._kept() if self._kept is not None else None

    @kept.setter
    def kept(self, module: ast.Module) -> None:
        self._kept = weakref.ref(module)

    def __len__(self) -> int:
        return len(self.starts)

    def chunk(self, i: int) -> str:
        return "".join(self.lines[self.starts[i]:self.ends[i]])

    def body(self, i: int) -> list:
        """Block i's statements; SyntaxError when it does not parse on its own."""
        if i not in self._bodies:
            # blank lines put the block at its own line numbers for the price of a tokenizer skip;
            # renumbering the parsed tree (ast.increment_lineno) costs a walk of every node
            block = parse("\n" * self.starts[i] + self.chunk(i), self.path)
            self._bodies[i] = torch_aliases.normalise(block, torch_aliases.of(self.text)).body  # the file's imports
        return self._bodies[i]

    def whole(self) -> ast.Module:
        """The whole file: every block, in order (the file parsed at once where a block does not parse alone)."""
        if self._whole is None:
            self._whole = self.module(range(len(self)))
        return self._whole

    def spanning(self, lines: Iterable[int]) -> ast.Module:
        """The blocks holding any of these (1-based) lines."""
        return self.module(sorted({self.block_of(line) for line in lines}))

    def block_of(self, line: int) -> int:
        return bisect.bisect_right(self.starts, line - 1) - 1

    def module(self, indices: Iterable[int]) -> ast.Module:
        try:
            body = [node for i in indices if i >= 0 for node in self.body(i)]
        except SyntaxError:  # a `def` at column 0 inside a string splits a block: the file parses whole
            try:
                return parse(self.text, self.path)
            except (SyntaxError, ValueError, MemoryError, RecursionError):
                if self.kept is None:
                    raise
                return self.kept  # one of the blocks parse_relevant left out is broken
        return ast.Module(body=body, type_ignores=[])


class WholeFile:
    """A file parsed at once, read through FileBlocks' questions."""

    def __init__(self, tree: ast.Module, text: str):
        self.tree, self.text = tree, text

    def chunk(self, i: int) -> str:
        return self.text

    def whole(self) -> ast.Module:
        return self.tree

    def spanning(self, lines: Iterable[int]) -> ast.Module:
        return self.tree

    def block_of(self, line: int) -> int:
        return 0


def block_starts(lines: List[str]) -> List[int]:
    starts = [0]
    previous_decorator = False
    for number, line in enumerate(lines):
        if line[:1] in _INSIDE_BLOCK:
            continue  # most lines: no test beyond their first character
        if _BLOCK_START.match(line):
            if not previous_decorator and number:
                starts.append(number)
            previous_decorator = line.startswith("@")
        elif line.strip():
            previous_decorator = False
    return sorted(set(starts))


def parse(text: str, path: str) -> ast.Module:
    """ast.parse; very deep code (long operator chains, generated files) is retried on a big stack. An alias
    of torch the text imports reads as `torch` (torch_aliases)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # invalid escape sequences etc. are not our findings
        try:
            tree = ast.parse(text, filename=path)
        except RecursionError:
            tree = on_big_stack(lambda: ast.parse(text, filename=path))
    return torch_aliases.normalise(tree, torch_aliases.of(text))


def on_big_stack(work: Callable[[], object]):
    """Run work() in a thread with a 256 MiB stack and a high recursion limit."""
    result = {}

    def target():
        limit = sys.getrecursionlimit()
        sys.setrecursionlimit(max(limit, 60000))
        try:
            result["value"] = work()
        except BaseException as exc:  # re-raised in the caller's thread
            result["error"] = exc
        finally:
            sys.setrecursionlimit(limit)

    old = threading.stack_size(256 * 1024 * 1024)
    try:
        thread = threading.Thread(target=target)
        thread.start()
        thread.join()
    finally:
        threading.stack_size(old)
    if "error" in result:
        raise result["error"]
    return result["value"]
