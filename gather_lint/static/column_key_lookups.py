"""`table[idx]` with a column of ids `idx` [N, 1]: the key's trailing 1 stays in the result (GL006).

Ids shaped for gather/scatter (`target.view(-1, 1)`, `actions.unsqueeze(1)`) used as an advanced
index give one row of the table per id *in the key's shape*: a [C] table gives [N, 1], a [C, 1]
column of class weights gives [N, 1, 1]. Combined with a per-sample [N] term, broadcasting aligns
the right-most dims and makes [N, N] / [N, 1, N], every sample with every other one, silently (a
focal loss's `alpha[idx] * (1 - pt) ** gamma * log(pt)`). The result is marked like a gather's
kept singleton, so the checks that follow a gathered [N, 1] (dataflow_checks._check_broadcast)
follow this one too; the [N, 1, 1] form is told apart in the rule by its run of trailing ones.
"""
from __future__ import annotations

import ast
import re
from typing import Optional

from .values import TensorVal
from .text_scan import file_test

_ID_DTYPES = ("int64", "int32")
# how a column of ids is spelled (the unsqueeze forms are everywhere: a block making its column that way
# is analysed when it names a family op, as a focal loss's gather / scatter of the same column does)
_COLUMNS = ("view(-1, 1)", "view(-1,1)", "reshape(-1, 1)", "reshape(-1,1)", ' 1"]')
_LOOKUP = re.compile(r"\w\[[A-Za-z_]\w*\]")  # `alpha[idx]`: a table indexed by one name


@file_test
def spelled_in(text: str) -> bool:
    """A block making a column of ids that indexes a table with one name and combines it: substring
    tests first (the prefilter runs on every block)."""
    if not ("-1, 1)" in text or "-1,1)" in text or ' 1"]' in text):
        return False  # every column spelling holds one of these: three scans of most files instead of five
    return any(column in text for column in _COLUMNS) and (" * " in text or "mul(" in text) \
        and _LOOKUP.search(text) is not None


def mark(node: ast.Subscript, key, result) -> Optional[TensorVal]:
    """`result` (what `table[key]` gave) marked as keeping the key's trailing 1, when it does."""
    if not isinstance(result, TensorVal) or result.kept_singleton is not None or not _column_of_ids(key):
        return result
    kept = len(key.shape.dims) - 1
    shape = result.shape
    if shape is None or shape.variadic or len(shape.dims) <= kept or shape.dims[kept] != 1:
        return result
    return result.with_(kept_singleton=kept, kept_at=node)


def _column_of_ids(key) -> bool:
    """An integer tensor [N, 1] (N not known to be 1): one id per row, in a column."""
    if not isinstance(key, TensorVal) or key.dtype not in _ID_DTYPES:
        return False
    s = key.shape
    return s is not None and not s.variadic and len(s.dims) == 2 and s.dims[1] == 1 and s.dims[0] != 1
