"""GL018 for soft lookups: a softmax (or a hard one-hot built from it) mixing an embedding table's rows
along another dim than the one it normalised.

`torch.einsum("b n h w, n d -> b d h w", probs, codebook.weight)` and `probs @ emb.weight` read
`probs` as weights over the table's entries: the dim contracted with the table's rows must be the
one the softmax normalised. A softmax over another dim (the default `dim=-1` of a gumbel-softmax
helper given `[b, n, h, w]` logits normalises the width) that survives into the result gives each
position a sum of rows weighted by shares of another dim, silently. Found only with an `nn.Embedding`'s
weight as the table (a codebook, a token table: its rows are entries, not mixing weights such as a
talking-heads projection over attention heads) and a normalised dim the product keeps.
"""
from __future__ import annotations

import ast
from typing import Optional

from ..rules import gl018_normalised_other_dim as rule
from .normalised_axis import assigned_value
from .values import Literal, SeqVal, TensorVal
from .text_scan import file_test

_TABLE = "nn.Embedding weight"


@file_test
def spelled_in(text: str) -> bool:
    return "oftmax" in text and ".weight" in text and ("einsum(" in text or " @ " in text or "matmul(" in text)


@file_test
def block_filter(text: str):
    """Blocks that can mix a table's rows (the softmax is often in a helper, which the calls bring in)."""
    if not spelled_in(text):
        return None
    return lambda chunk: ".weight" in chunk and ("einsum(" in chunk or " @ " in chunk or "matmul(" in chunk)


def check_einsum(interp, node: ast.Call, args: list) -> None:
    """torch.einsum(equation, *operands): a marked operand whose non-normalised letter meets a table's rows."""
    if len(args) < 3 or not isinstance(args[0], Literal) or not isinstance(args[0].value, str):
        return
    operands = list(args[1:])
    if len(operands) == 1 and isinstance(operands[0], SeqVal):
        return  # einsum(eq, [a, b]): the operand nodes are not the call's arguments
    equation = args[0].value.replace(" ", "")
    inputs, arrow, output = equation.partition("->")
    terms = inputs.split(",")
    if not arrow or "." in equation or len(terms) != len(operands) or len(node.args) != len(args):
        return
    for i, probs in enumerate(operands):
        mark = _mark(probs)
        if mark is None or len(terms[i]) != len(mark.shape.dims):
            continue
        normalised = terms[i][mark.axis]
        if normalised not in output or any(normalised in t for j, t in enumerate(terms) if j != i):
            continue  # the distribution's dim is summed over (an expectation) or paired with another operand
        for j, table in enumerate(operands):
            if j == i or not _is_table(table) or len(terms[j]) != 2:
                continue
            rows = terms[j][0]
            if rows in terms[i] and rows not in output:
                _flag(interp, node, node.args[1 + i], mark, terms[i].index(rows), node.args[1 + j])
                return


def check_matmul(interp, node: ast.AST, left_node, left, right_node, right) -> None:
    """`probs @ table.weight` / torch.matmul(probs, table.weight): the last dim meets the table's rows."""
    mark = _mark(left)
    if mark is None or not _is_table(right):
        return
    last = len(mark.shape.dims) - 1
    if mark.axis != last:
        _flag(interp, node, left_node, mark, last, right_node)


def _mark(t):
    mark = t.normalised if isinstance(t, TensorVal) else None
    if mark is None or t.shape is None or t.shape.variadic or mark.shape.variadic \
            or len(t.shape.dims) != len(mark.shape.dims) or len(mark.shape.dims) < 2:
        return None
    return mark


def _is_table(t) -> bool:
    return isinstance(t, TensorVal) and t.origin == _TABLE and t.shape is not None and not t.shape.variadic \
        and len(t.shape.dims) == 2


def _flag(interp, reader: ast.AST, probs_node, mark, read: int, table_node) -> None:
    segment = interp.source.segment
    how = f"mixes the rows of the embedding table `{segment(table_node)}` along dim {read}"
    helper = _helper_call(interp, probs_node, mark)
    if helper is None:
        interp.flag(mark.node, rule.check_read_elsewhere(
            mark.call, mark.input, mark.shape, mark.function, mark.axis, "", mark.implicit,
            segment(reader), reader.lineno, read, how), None)
        return
    interp.flag(helper, rule.check_helper_read_elsewhere(
        segment(helper), mark.call, mark.node.lineno, mark.shape, mark.function, mark.axis,
        segment(reader), reader.lineno, read, how, _passes_dim(interp, helper)), None)


def _helper_call(interp, probs_node, mark) -> Optional[ast.Call]:
    """The call of a helper (outside this function) whose softmax made the operand: where the caller
    chooses its dim."""
    function = interp.function
    if function is None or function.lineno <= mark.node.lineno <= (function.end_lineno or function.lineno):
        return None
    made = assigned_value(probs_node, function, probs_node.lineno) if isinstance(probs_node, ast.Name) else probs_node
    return made if isinstance(made, ast.Call) else None


def _passes_dim(interp, call: ast.Call) -> Optional[bool]:
    """Whether the helper call gives `dim` (None when the helper is not known to take one)."""
    if any(k.arg == "dim" for k in call.keywords):
        return True
    name = call.func.id if isinstance(call.func, ast.Name) else None
    helper = interp.module.functions.get(name) if name is not None and interp.module is not None else None
    if helper is None:
        return None
    params = [p.arg for p in helper.args.posonlyargs + helper.args.args]
    if "dim" not in params and "dim" not in [p.arg for p in helper.args.kwonlyargs]:
        return None
    return "dim" in params and params.index("dim") < len(call.args)
