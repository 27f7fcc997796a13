"""Python lists of numbers whose items are not spelled out: how long they are, and what their items are.

    ids = [bos] + pieces[: max_length - 2] + [eos]
    rows.append(ids + [pad_id] * (max_length - len(ids)))     # each row max_length long
    input_ids = torch.tensor(rows)                             # [len(docs), max_length]

`a + b` is as long as both together and `[v] * k` is k long (for k >= 0), so a list padded by the complement
of its own length is as long as the target, whatever its own length was (code pads a list no longer than
the target). A length is read as a linear sum of the code's own text, `len(ids)` one atom, so that the
list's unknown length cancels; a size the code bound (`max_length` of 48) then gives the number.
"""
from __future__ import annotations

import ast
from typing import Optional

from .. import linear_sizes
from ..dims import Sym, value
from . import scalars
from .tensor_ops import Repeated
from .values import DimVal, SeqVal, join_all


def concat(interp, node: ast.BinOp, left, right, symbol: str) -> Optional[Repeated]:
    """`a + b` or `[v] * k` of lists of numbers where a count is not known: like numbers, as many as the
    length the code's text adds up to (None where it does not)."""
    if symbol == "*":
        listed, count = (left, right) if _is_list(left) else (right, left)
        # `[v] * k` runs only for an int k, whatever the analysis knows of it; a known one spells the items out
        if not _is_list(listed) or _is_list(count) or (isinstance(count, DimVal) and value(count.dim) is not None):
            return None
        element = _element(listed)
        return Repeated(element, _length(interp, node)) if element is not None else None
    if symbol != "+" or not (_is_list(left) and _is_list(right)) or not (
            isinstance(left, Repeated) or isinstance(right, Repeated)):
        return None
    elements = [_element(left), _element(right)]
    if None in elements:
        return None
    return Repeated(join_all(elements), _length(interp, node))


def _is_list(v) -> bool:
    return (type(v) is not SeqVal or not v.names) and isinstance(v, (SeqVal, Repeated))


def _element(seq):
    """What every item is: a number (its value joined), or None for anything else."""
    return scalars.joined_numbers([seq.element] if isinstance(seq, Repeated) else seq.items)


def _length(interp, node: ast.expr):
    """The length `node` adds up to: a number, or the one size name left; None otherwise."""
    summed = linear_sizes.parse(_length_text(node))
    if summed is None:
        return None
    known, named = {}, {}
    for monomial in summed:
        for atom in monomial:
            size = _atom_size(interp, atom)
            if isinstance(size, int):
                known[atom] = size
            elif isinstance(size, Sym):
                named[atom] = size
    total = linear_sizes.evaluate(summed, known)
    if total is not None:
        return total if total >= 0 else None
    rest = {k: v for k, v in summed.items() if any(a not in known for a in k)}
    if len(rest) == 1 and not set(summed) - set(rest) and list(rest.values()) == [1]:
        (monomial,) = rest
        return named.get(monomial[0]) if len(monomial) == 1 else None  # `max_length` of unknown value
    return None


def _length_text(node: ast.expr) -> str:
    """`len(a) + 1`-style text of how long the list `node` makes is."""
    if isinstance(node, (ast.List, ast.Tuple)) and not any(isinstance(e, ast.Starred) for e in node.elts):
        return str(len(node.elts))
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
        return f"({_length_text(node.left)}) + ({_length_text(node.right)})"
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Mult):
        for listed, count in ((node.left, node.right), (node.right, node.left)):
            if isinstance(listed, (ast.List, ast.Tuple)):
                return f"({_length_text(listed)}) * ({ast.unparse(count)})"
    return f"len({ast.unparse(node)})"


def _atom_size(interp, atom: str):
    """A name's int (`max_length`), or a list's length (`len(ids)`): a number, a size name, or None."""
    try:
        tree = ast.parse(atom, mode="eval").body
    except SyntaxError:
        return None
    if isinstance(tree, ast.Call) and isinstance(tree.func, ast.Name) and tree.func.id == "len" and len(tree.args) == 1:
        seq = interp.env.get(tree.args[0].id) if isinstance(tree.args[0], ast.Name) else None
        if isinstance(seq, SeqVal) and not seq.names:
            return len(seq.items)
        return seq.length if isinstance(seq, Repeated) and seq.length is not None else None
    if isinstance(tree, ast.Name):
        bound = interp.env.get(tree.id)
        if isinstance(bound, DimVal) and bound.dim is not None:
            return bound.dim
    return None
