"""A count of the tensor-op calls the interpreter evaluates, and whether an entry gave their result
(benchmarks/op_coverage.py). Off unless a census is started: each hook is one test of `active`."""
from __future__ import annotations

from typing import Dict, Optional, Tuple

from .values import UNKNOWN_ARITY, SeqVal, TensorVal

# an entry gave a value / an entry ran and found the result unknown / no entry / the input unknown
COVERED, UNKNOWN_RESULT, MISSING, UNKNOWN_INPUT = "covered", "unknown result", "missing", "unknown input"
_RANK = {UNKNOWN_INPUT: 0, MISSING: 1, UNKNOWN_RESULT: 2, COVERED: 3}  # a call run several times keeps its best
FORMS = {"torch": "torch", "torch.nn.functional": "F"}  # the namespaces whose functions are counted


class Census:
    """Outcome per call site: (file, line, column, form, op name) -> one of the four above.
    A site is counted once however often the analysis runs it (callers' facts, loops, silent reruns)."""

    def __init__(self):
        self.file = ""
        self.sites: Dict[Tuple[str, int, int, str, str], str] = {}
        self.unmatched: Optional[str] = None  # the op whose dispatch just found no entry (set by the dispatchers)

    def no_entry(self, name: str) -> bool:
        """Whether the dispatch of `name` just ended without an entry; the mark is read once."""
        found, self.unmatched = self.unmatched == name, None
        return found

    def note(self, node, form: str, name: str, outcome: str) -> None:
        key = (self.file, getattr(node, "lineno", 0), getattr(node, "col_offset", 0), form, name)
        if _RANK[outcome] > _RANK.get(self.sites.get(key), -1):
            self.sites[key] = outcome


active: Optional[Census] = None


def start() -> Census:
    global active
    active = Census()
    return active


def stop() -> None:
    global active
    active = None


def method(node, name: str, result):
    """`t.name(...)` on a tensor the analysis holds: an entry ran (its result may be unknown: `x.dim()` of an
    unknown shape), or the dispatch found none. Returns result."""
    if active is not None:
        missing = active.no_entry(name)  # (bool_results answers x.isnan() the table does not: a value all the same)
        active.note(node, "method", name, COVERED if result is not None else (MISSING if missing else UNKNOWN_RESULT))
    return result


def site(node, method_form: bool, name: str, receiver) -> None:
    """A gather/scatter-family call the contract checked: its own entry (the rules' Site)."""
    if active is not None and (not method_form or isinstance(receiver, TensorVal)):
        active.note(node, "method" if method_form else "torch", name, COVERED)


def function(node, qualified: str, args: list, result, kwargs=None) -> None:
    """`torch.name(...)` / `F.name(...)`. A call whose first argument (or `input=`) the analysis does not hold
    counts apart (as a method on an unknown receiver is not counted): no entry could give its result."""
    if active is None:
        return
    module, _, name = qualified.rpartition(".")
    form = FORMS.get(module)
    if form is None:
        return
    missing = active.no_entry(name)
    if result is not None:
        outcome = COVERED
    elif args and not _held(args[0]) or not args and "input" in (kwargs or {}) and not _held(kwargs["input"]):
        outcome = UNKNOWN_INPUT
    else:
        outcome = MISSING if missing else UNKNOWN_RESULT
    active.note(node, form, name, outcome)


def _held(first) -> bool:
    """A first argument the analysis knows: a tensor, a sequence holding one (cat, stack), a size or a
    number; not an unknown value."""
    if isinstance(first, SeqVal):
        return any(isinstance(item, TensorVal) for item in first.items) or all(item is not None for item in first.items)
    return first is not None and first != UNKNOWN_ARITY
