"""Recent reads through an index, so that a write back through the same index is recognised (GL013).

`x[ids] += v` reads x[ids], adds in place, and writes back with the same key object; the right-hand
side may index other tensors in between (`flat[idx] += w[valid]`), so a few reads are kept, not one.
`x.index_copy_(d, ids, f(x.index_select(d, ids)))` is the same read-modify-write spelled with ops.
Entries hold weak references only: a read result or tensor that dies is never matched.
"""
from __future__ import annotations

import weakref
from typing import List, Optional

_KEPT = 8  # reads remembered; a statement rarely indexes more tensors than this before its write


class Read:
    __slots__ = ("result", "key", "op")

    def __init__(self, result, key):
        self.result = result  # weakref to what x[key] returned
        self.key = key
        self.op: Optional[str] = None  # "+=" / "-=" once an augmented operator ran on the result


_subscripts: List[Read] = []
_selects: List[tuple] = []  # (weakref to x, dim, weakref to index) of recent x.index_select(dim, index)


def note_subscript(result, key) -> None:
    try:
        entry = Read(weakref.ref(result), key)
    except TypeError:
        return
    _subscripts.append(entry)
    if len(_subscripts) > _KEPT:
        del _subscripts[0]


def note_augmented(result, op: str) -> None:
    for entry in reversed(_subscripts):
        if entry.result() is result:
            entry.op = op
            return


def augmented_write(key, value) -> Optional[str]:
    """The operator (`+=`, `-=`) when `value` is x[key] after an augmented op, read with this key object."""
    for k, entry in enumerate(_subscripts):
        if entry.op is not None and entry.key is key and entry.result() is value:
            del _subscripts[k]
            return entry.op
    return None


def note_select(x, dim, index) -> None:
    try:
        entry = (weakref.ref(x), dim, weakref.ref(index))
    except TypeError:
        return
    _selects.append(entry)
    if len(_selects) > _KEPT:
        del _selects[0]


def selected_before(x, dim, index) -> bool:
    """x.index_select(dim, index) ran on these very objects (the rows a write-back read)."""
    for ref_x, read_dim, ref_index in _selects:
        if read_dim == dim and ref_x() is x and ref_index() is index:
            return True
    return False


def clear() -> None:
    _subscripts.clear()
    _selects.clear()
