"""Strings written in a script, and the lists of words and ids a toy tokenizer makes from them.

A script that tokenizes a document it writes out (`" ".join(["hello world"] * 12)`, then
`[vocab[w] for w in text.split()]` plus a bos and an eos id) makes ids of a length the code fixes:
50 positions, which a 34-row position table cannot hold. Only what fixes lengths is followed:
`str.join` of written strings, `str.split`, a list comprehension without a filter over a list of
known length (its items' values may stay unknown), and `torch.tensor` of such a list.
"""
from __future__ import annotations

from typing import Optional

from ..dims import Shape, value
from .values import DimVal, Literal, SeqVal, TensorVal

_MOST_ITEMS = 4096
_SAME_LENGTH = ("lower", "upper", "strip", "casefold")  # text.lower().split(): the words stay the words
_MOST_CHARS = 100_000


def method(owner: Literal, name: str, args, kwargs):
    """`sep.join(words)` / `text.split()` of a written string; None for anything else."""
    text = owner.value
    if name == "join" and len(args) == 1 and not kwargs and isinstance(args[0], SeqVal) and not args[0].names \
            and all(isinstance(i, Literal) and isinstance(i.value, str) for i in args[0].items):
        joined = text.join(i.value for i in args[0].items)
        return Literal(joined) if len(joined) <= _MOST_CHARS else None
    if name in _SAME_LENGTH and not args and not kwargs:
        return Literal(getattr(text, name)())
    if name == "split" and not kwargs and (not args or len(args) == 1 and isinstance(args[0], Literal)
                                          and (args[0].value is None or isinstance(args[0].value, str) and args[0].value)):
        words = text.split(args[0].value if args else None)
        return SeqVal(tuple(Literal(w) for w in words)) if len(words) <= _MOST_ITEMS else None
    return None


def is_text(value) -> bool:
    return isinstance(value, Literal) and isinstance(value.value, str)


def mapped(iterable, element) -> Optional[SeqVal]:
    """`[f(w) for w in words]` without a filter: one item per item of a list of known length, each the
    element's value where it does not depend on the item (else unknown)."""
    if not isinstance(iterable, SeqVal) or iterable.names or len(iterable.items) > _MOST_ITEMS \
            or isinstance(element, (TensorVal, SeqVal)):
        return None
    return SeqVal((element,) * len(iterable.items))


def tensor_of_scalars(data) -> Optional[TensorVal]:
    """`torch.tensor(ids)` of a list of known length whose known items are ints and the rest unknown:
    a 1-d tensor of that length (an int among them rules out nested lists: torch would raise)."""
    if not isinstance(data, SeqVal) or data.names or not data.items:
        return None
    if all(isinstance(i, SeqVal) for i in data.items):  # [ids] / [ids_a, ids_b]: a batch of equal rows
        rows = [tensor_of_scalars(i) for i in data.items]
        if any(r is None for r in rows) or len({r.shape for r in rows}) != 1:
            return None
        return TensorVal(Shape((len(rows),) + rows[0].shape.dims), None, origin="constructor")
    known = [isinstance(i, DimVal) and value(i.dim) is not None for i in data.items]
    if not all(i is None or isinstance(i, DimVal) for i in data.items) or all(known) or not any(known):
        return None  # (a list of known numbers is the literal reading's, dtype and values included)
    return TensorVal(Shape((len(data.items),)), None, origin="constructor")
