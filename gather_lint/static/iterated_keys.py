"""Names a function binds to the keys of a dict it iterates: `for sequence_ids, bias in table.items()`.

Dict keys are hashable Python values (tuples of token ids, ints, strings), not index tensors: a name that
sounds like ids (`sequence_ids`) must not make them a tensor of repeating values (names.category_domain),
nor `sequence_ids[-1]`, one int, an index that can repeat.
"""
from __future__ import annotations

import ast

from . import tree_walk

_WORDS = (".items()", ".keys()")


def bound_as_key(function, name: str, lines) -> bool:
    """Whether `function` (whose source `lines` are the file's) binds `name` as a key of `.items()` or `.keys()`."""
    if function is None:
        return False
    keys = getattr(function, "_gather_lint_iterated_keys", None)
    if keys is None:  # one walk per function, and only of one that spells such a loop
        text = "\n".join(lines[function.lineno - 1:function.end_lineno or function.lineno])
        keys = function._gather_lint_iterated_keys = frozenset(
            _key_names(tree_walk.all_nodes(function)) if any(word in text for word in _WORDS) else ())
    return name in keys


def _key_names(nodes):
    for node in nodes:
        if isinstance(node, (ast.For, ast.AsyncFor, ast.comprehension)) and isinstance(node.iter, ast.Call) \
                and isinstance(node.iter.func, ast.Attribute) and not node.iter.args:
            method, target = node.iter.func.attr, node.target
            if method == "items" and isinstance(target, ast.Tuple) and target.elts and isinstance(target.elts[0], ast.Name):
                yield target.elts[0].id
            elif method == "keys" and isinstance(target, ast.Name):
                yield target.id
