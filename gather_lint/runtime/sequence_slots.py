"""Keep torch.Tensor's C sequence slots as torch made them while its `__getitem__`/`__setitem__` are patched.

Assigning `Tensor.__getitem__` in Python makes CPython fill the type's `sq_item` slot with a generic one, and
removing the attribute again cannot clear it (the base's `__getitem__` is a mapping slot). A tensor then passes
`PySequence_Check`, and `torch.tensor([torch.tensor(1), torch.tensor(2)])` calls `len()` of a 0-d tensor and
raises, while checking and ever after. The slots are read before the patch and written back after each change.

The slots are reached through the type object's layout (tp_as_sequence, then sq_item and sq_ass_item), which
CPython has kept since 3.8; the layout is checked against `tp_basicsize` first, and nothing is touched when it
does not match or the interpreter is not CPython.
"""
from __future__ import annotations

import ctypes
import platform
from typing import Optional, Tuple

_WORD = ctypes.sizeof(ctypes.c_void_p)
# PyTypeObject: ob_refcnt, ob_type, ob_size, tp_name, tp_basicsize, tp_itemsize, tp_dealloc,
# tp_vectorcall_offset, tp_getattr, tp_setattr, tp_as_async, tp_repr, tp_as_number, tp_as_sequence
_BASICSIZE_AT, _AS_SEQUENCE_AT = 4, 13
# PySequenceMethods: sq_length, sq_concat, sq_repeat, sq_item, was_sq_slice, sq_ass_item
_ITEM_AT, _ASS_ITEM_AT = 3, 5


def _word(address: int) -> ctypes.c_void_p:
    return ctypes.c_void_p.from_address(address)


def _slots_address(cls) -> Optional[int]:
    """The address of cls's PySequenceMethods, when the layout is the one expected."""
    if platform.python_implementation() != "CPython":
        return None
    base = id(cls)
    if ctypes.c_ssize_t.from_address(base + _BASICSIZE_AT * _WORD).value != cls.__basicsize__:
        return None
    return _word(base + _AS_SEQUENCE_AT * _WORD).value


def read(cls) -> Optional[Tuple[int, Optional[int], Optional[int]]]:
    """(address, sq_item, sq_ass_item) of cls, or None when they cannot be read safely."""
    address = _slots_address(cls)
    if not address:
        return None
    return address, _word(address + _ITEM_AT * _WORD).value, _word(address + _ASS_ITEM_AT * _WORD).value


def restore(cls, saved) -> None:
    """Write back what `read` saw, where the slots still live at the same address."""
    if saved is None or _slots_address(cls) != saved[0]:
        return
    address, item, ass_item = saved
    _word(address + _ITEM_AT * _WORD).value = item
    _word(address + _ASS_ITEM_AT * _WORD).value = ass_item
    ctypes.pythonapi.PyType_Modified(ctypes.py_object(cls))
