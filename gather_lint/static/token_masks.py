"""Masks made from the very tokens that are scored, and per-token scores weighted or cut beside them.

`mask = (tokens != pad).long()` holds one flag per position of `tokens`; the per-token log-probs of
`tokens[:, 1:]` (next-token scores) hold one value per position from 1 on. Cut the same way
(`logprobs[:, s:e], mask[:, s:e]`) or multiplied as they are, each score meets the flag of the token
before it: the prompt's last token counts as a response token and the last response token is dropped.
Both are followed as windows of the one tokens tensor, so the offset is known whatever the shapes.
"""
from __future__ import annotations

import ast
from typing import Optional

from ..contract import WARNING, Violation
from .token_windows import add_lin, constant_of, window_length

_COMPARISONS = {"ne", "not_equal", "eq", "equal", "lt", "gt", "le", "ge"}  # elementwise: one flag per position
_OPERATORS = (ast.NotEq, ast.Eq, ast.Lt, ast.Gt, ast.LtE, ast.GtE)


def compared(node) -> Optional[ast.expr]:
    """The tensor of `ids != pad` / `ids.ne(pad)` / `torch.ne(ids, pad)`, compared with a scalar-looking
    value (a name, an attribute, a number); None otherwise."""
    if isinstance(node, ast.Compare) and len(node.ops) == 1 and isinstance(node.ops[0], _OPERATORS) \
            and _scalar(node.comparators[0]):
        return node.left
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr in _COMPARISONS:
        receiver = node.func.value
        if isinstance(receiver, ast.Name) and receiver.id == "torch":
            return node.args[0] if len(node.args) == 2 and _scalar(node.args[1]) else None
        return receiver if len(node.args) == 1 and _scalar(node.args[0]) else None
    return None


def _scalar(node) -> bool:
    return isinstance(node, ast.Constant) and isinstance(node.value, (int, float)) or \
        isinstance(node, ast.UnaryOp) and isinstance(node.operand, ast.Constant) or \
        isinstance(node, (ast.Name, ast.Attribute)) and (
            _upper_name(node) or any(word in ast.unparse(node).lower() for word in _TOKEN_WORDS))


_TOKEN_WORDS = ("pad", "eos", "ignore", "token_id", "mask_id")


def _upper_name(node) -> bool:
    """`PAD_ID`, `config.PAD`: a constant by convention."""
    name = node.id if isinstance(node, ast.Name) else node.attr
    return name.isupper()


def offset(scores, mask) -> Optional[int]:
    """How many positions further on the scored tokens sit than the flags beside them (token_windows Views of
    one tokens tensor, the same length); None when that is not known or they are not such a pair."""
    if not (scores.scores and mask.mask) or scores.base != mask.base or scores.flat or mask.flat:
        return None
    if constant_of(add_lin(window_length(scores.window), window_length(mask.window), -1)) != 0:
        return None
    return constant_of(add_lin(scores.window[0], mask.window[0], -1))


def misaligned(scores_text: str, mask_text: str, base: str, offset: int) -> Violation:
    before = "before" if offset > 0 else "after"
    return Violation(
        "GL007", WARNING,
        f"`{scores_text}` holds the scores of `{base}` one position further on than `{mask_text}` holds its "
        f"flags (the scores were shifted for next-token prediction, the mask was not): each token's score "
        f"meets the flag of the token {abs(offset)} position{'s' if abs(offset) > 1 else ''} {before} it, so "
        f"the masked span is off by {abs(offset)}, silently; cut the mask {abs(offset)} further "
        f"{'right' if offset > 0 else 'left'} (`[s + 1:e + 1]` for `[s:e]`) so both cover the same tokens",
        help="cut the mask at the positions of the scored tokens")
