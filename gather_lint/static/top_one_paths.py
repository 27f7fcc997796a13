"""GL023: a top-1 path that picks with `max(dim)` where the other path keeps the dim with `topk`
(or, for a greedy `argmax(dim=-1)`, samples with `multinomial`, which adds a dim).

Found by syntax, one function at a time: a `max`/`min`/`argmax`/`argmin` over a literal dim without
`keepdim=True` (method or `torch.` form) and a `topk` of the same tensor along the same dim (its
default dim is -1), the same part of the result (`.values` / `[0]`, `.indices` / `[1]`, or the pair),
reaching the same place on different paths: both returned, or assigned to the same targets in the
two arms of an `if` or of a conditional expression. Anything applied to a pick before it gets
there (`.mean(1)`, `.squeeze()`) makes it another value, and the pair is not compared. Nor is a pair
assigned to a name that is only read where a trailing dim of size 1 makes no difference: packed by
einops as `'b *'` (`pack([codes, sample], 'b *')` appends a `[B]` and a `[B, 1]` alike) or
flattened (`.flatten()`, `.view(-1)`, `.reshape(-1)`). A
`multinomial` of the softmax over the last dim of the same scores stands for the top-k (indices
only, one sample per row in a new last dim).
"""
from __future__ import annotations

import ast
import re
from dataclasses import dataclass
from typing import Dict, Iterator, List, Optional, Tuple

from ..rules import gl023_top_one_drops_k_dim as rule
from . import keyword_aliases
from .text_scan import any_between, literal_lines, match_lines
from .tree_walk import called_name, int_literal, own_nodes, scopes
from .text_scan import file_test

_ONE = {"max": True, "argmax": True, "min": False, "argmin": False}  # -> picks the largest
_PARTS = {"values": 0, "indices": 1}


_KEEPING = ("topk", "multinomial")
# `.max(`, `torch.argmax(`, `.min(` (softmax lines too: a superset, found without a `\b` tried at every position)
_DROPPING = re.compile(r"(?:max|min)\b")


@file_test
def spelled_in(text: str) -> bool:
    return ("topk" in text and (".max(" in text or ".min(" in text or "argmax(" in text or "argmin(" in text)) \
        or ("multinomial(" in text and "argmax(" in text)


@dataclass(frozen=True)
class _Pick:
    node: ast.Call
    keeps: bool  # topk keeps the dim; the others drop it
    tensor: str
    dim: int
    largest: bool
    part: Optional[int]  # 0 values, 1 indices, None the pair


def check_module(tree: ast.Module, text: str) -> Iterator[Tuple[ast.AST, object]]:
    # a scope needs a dim-keeping pick (topk, or a sample beside the greedy pick) and a dim-dropping one
    keeping = sorted(literal_lines(text, _KEEPING))
    dropping = sorted(match_lines(text, _DROPPING))
    for scope in scopes(tree):
        if scope is tree:
            continue  # a return needs a function
        last = scope.end_lineno or scope.lineno
        if any_between(keeping, scope.lineno, last) and any_between(dropping, scope.lineno, last):
            yield from _check_scope(scope)


def _check_scope(scope) -> Iterator[Tuple[ast.AST, object]]:
    nodes = own_nodes(scope)
    made = _made_once(nodes)
    picks = [p for p in (_pick(n, made) for n in nodes if isinstance(n, ast.Call)) if p is not None]
    if not any(p.keeps for p in picks) or all(p.keeps for p in picks):
        return
    parents: Dict[int, Tuple[ast.AST, str]] = {}
    for node in nodes:
        for field, value in ast.iter_fields(node):
            for child in value if isinstance(value, list) else [value]:
                if isinstance(child, ast.AST):
                    parents[id(child)] = (node, field)
    returned = _returned_names(nodes)
    placed = []
    for pick in picks:
        where = _destination(pick, parents, returned)
        if where is not None:
            placed.append((pick, where))
    for one, (one_part, one_dest, one_stmt) in placed:
        if one.keeps:
            continue
        for other, (other_part, other_dest, other_stmt) in placed:
            if not other.keeps or (other.tensor, other.dim, other.largest) != (one.tensor, one.dim, one.largest):
                continue
            if one_part != other_part or one_dest != other_dest:
                continue
            returns = isinstance(one_stmt, ast.Return) and isinstance(other_stmt, ast.Return)
            if _rebound_after(_statement(one.node, parents), parents) or _rebound_after(_statement(other.node, parents), parents):
                continue  # `token = token[:, None]` next in the arm: the pick is not what leaves it
            if (returns and one_stmt is not other_stmt) or (_other_arms(one.node, other.node, parents)
                                                             and not _read_rank_blind(one_dest, nodes, parents)):
                yield one.node, _violation(one, other)
                break


def _statement(node: ast.AST, parents) -> Optional[ast.AST]:
    """The statement holding node."""
    while node is not None and not isinstance(node, ast.stmt):
        node = parents.get(id(node), (None, None))[0]
    return node


def _rebound_after(stmt: ast.stmt, parents) -> bool:
    """A later statement of the same block assigns a name `stmt` assigns: the value stmt binds is replaced
    before the block ends, so what the block hands on is that later value."""
    holder, field = parents.get(id(stmt), (None, None))
    block = getattr(holder, field, None) if holder is not None else None
    if not isinstance(stmt, ast.Assign) or not isinstance(block, list) or stmt not in block:
        return False
    names = {n.id for t in stmt.targets for n in ast.walk(t) if isinstance(n, ast.Name)}
    for later in block[block.index(stmt) + 1:]:
        targets = later.targets if isinstance(later, ast.Assign) else [later.target] \
            if isinstance(later, (ast.AugAssign, ast.AnnAssign)) else []
        if any(isinstance(n, ast.Name) and n.id in names for t in targets for n in ast.walk(t)):
            return True
    return False


def _read_rank_blind(dest: str, nodes, parents) -> bool:
    """Whether the name both paths assign is read, and only where a trailing dim of size 1 changes
    nothing: einops' `pack([.., name], 'b *')` (the `*` takes whatever dims follow) or a flattening."""
    reads = [n for n in nodes if isinstance(n, ast.Name) and n.id == dest and isinstance(n.ctx, ast.Load)]
    return bool(reads) and all(_packed_with_trailing_star(n, parents) or _flattened(n, parents) for n in reads)


def _packed_with_trailing_star(name: ast.Name, parents) -> bool:
    holder, _ = parents.get(id(name), (None, None))
    if not isinstance(holder, (ast.List, ast.Tuple)):
        return False
    call, _ = parents.get(id(holder), (None, None))
    if not isinstance(call, ast.Call) or called_name(call) != "pack" or not call.args or call.args[0] is not holder:
        return False
    pattern = call.args[1] if len(call.args) > 1 else next((k.value for k in call.keywords if k.arg == "pattern"), None)
    if not (isinstance(pattern, ast.Constant) and isinstance(pattern.value, str)):
        return False
    # one named axis, then `*`: the dropping pick keeps at least that one dim (a max over dim -1 of a 2-d tensor)
    return pattern.value.split()[1:] == ["*"]


def _flattened(name: ast.Name, parents) -> bool:
    """`name.flatten()`, `name.view(-1)`, `name.reshape(-1)`."""
    attribute, _ = parents.get(id(name), (None, None))
    call, _ = parents.get(id(attribute), (None, None))
    if not isinstance(attribute, ast.Attribute) or not isinstance(call, ast.Call) or call.func is not attribute \
            or call.keywords:
        return False
    if attribute.attr == "flatten":
        return not call.args
    return attribute.attr in ("view", "reshape") and len(call.args) == 1 and int_literal(call.args[0]) == -1


def _violation(one: _Pick, other: _Pick):
    text = ast.unparse(one.node)
    fixed = text[:-1] + ", keepdim=True)"
    sampler = called_name(other.node) == "multinomial"
    keeps = "gives one sample per row in a last dim of its own" if sampler else "keeps"
    return rule.check_paths(text, ast.unparse(other.node), other.node.lineno, str(one.dim), keeps, fixed)


def _made_once(nodes) -> Dict[str, ast.AST]:
    """name -> value, for the names the scope assigns exactly once."""
    made: Dict[str, ast.AST] = {}
    seen = set()
    for node in nodes:
        if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name):
            name = node.targets[0].id
            if name in seen:
                made.pop(name, None)
            else:
                made[name] = node.value
            seen.add(name)
    return made


def _scores(node, made) -> str:
    """The scores a sampler's probabilities were made from: `probs = F.softmax(logits, dim=-1)` ->
    logits, whose argmax is the greedy pick of the same distribution."""
    value = made.get(node.id) if isinstance(node, ast.Name) else node
    if isinstance(value, ast.Call) and isinstance(value.func, ast.Attribute) and value.func.attr in _NORMALISERS:
        by_method = not (isinstance(value.func.value, ast.Name) and value.func.value.id in ("torch", "F", "nn"))
        inner = value.func.value if by_method else (value.args[0] if value.args else None)
        dims = value.args if by_method else value.args[1:]
        dim = int_literal(dims[0]) if dims else next((int_literal(k.value) for k in value.keywords if k.arg == "dim"), None)
        if isinstance(inner, ast.BinOp) and isinstance(inner.op, ast.Div):
            inner = inner.left  # scores / temperature: the same order, the same argmax
        if inner is not None and dim == -1:
            return ast.unparse(inner)
    return ast.unparse(node)


_NORMALISERS = ("softmax", "log_softmax")


def _pick(call: ast.Call, made) -> Optional[_Pick]:
    func = call.func
    if not isinstance(func, ast.Attribute):
        return None
    by_torch = isinstance(func.value, ast.Name) and func.value.id == "torch"
    args = list(call.args)
    if by_torch:
        if not args:
            return None
        tensor, args = args[0], args[1:]
    else:
        tensor = func.value
    keywords = keyword_aliases.keyword_nodes(call)
    if func.attr == "multinomial":  # samples of each row's distribution over its last dim, in a new last dim
        return _Pick(call, True, _scores(tensor, made), -1, True, 1)
    if func.attr == "topk":
        dim = int_literal(args[1]) if len(args) > 1 else int_literal(keywords["dim"]) if "dim" in keywords else -1
        largest = args[2] if len(args) > 2 else keywords.get("largest")
        largest = not (isinstance(largest, ast.Constant) and largest.value is False)
        return _Pick(call, True, ast.unparse(tensor), dim, largest, None) if dim is not None else None
    if func.attr not in _ONE:
        return None
    dim = int_literal(args[0]) if args else int_literal(keywords["dim"]) if "dim" in keywords else None
    keepdim = args[1] if len(args) > 1 else keywords.get("keepdim")
    if dim is None or not (keepdim is None or isinstance(keepdim, ast.Constant) and keepdim.value is False):
        return None
    part = 1 if func.attr.startswith("arg") else None
    return _Pick(call, False, ast.unparse(tensor), dim, _ONE[func.attr], part)


def _destination(pick: _Pick, parents, returned) -> Optional[tuple]:
    """(part, 'return' or the assigned targets' text, the statement) where the pick's result goes as is."""
    node, part = pick.node, pick.part
    while True:
        parent, field = parents.get(id(node), (None, None))
        if isinstance(parent, ast.Attribute) and parent.attr in _PARTS and part is None:
            part = _PARTS[parent.attr]
        elif isinstance(parent, ast.Subscript) and field == "value" and part is None and int_literal(parent.slice) in (0, 1):
            part = int_literal(parent.slice)
        elif isinstance(parent, ast.IfExp) and field in ("body", "orelse"):
            pass
        elif isinstance(parent, ast.Return):
            return part, "return", parent
        elif isinstance(parent, ast.Assign) and field == "value":
            targets = " = ".join(ast.unparse(t) for t in parent.targets)
            if targets in returned:  # `w, i = s.max(-1)` ... `return w, i`: the path leaves there
                return part, "return", returned[targets]
            return part, targets, parent
        else:
            return None
        node = parent


def _returned_names(nodes: List[ast.AST]) -> Dict[str, ast.Return]:
    """Texts of the plain names (or tuples of names) the function returns as they are, with the
    return that does (a name returned by several returns: none of them)."""
    found: Dict[str, Optional[ast.Return]] = {}
    for node in nodes:
        if isinstance(node, ast.Return) and node.value is not None:
            value = node.value
            if isinstance(value, ast.Name) or isinstance(value, ast.Tuple) and all(isinstance(e, ast.Name) for e in value.elts):
                text = ast.unparse(value)
                found[text] = None if text in found else node
    return {text: node for text, node in found.items() if node is not None}


def _other_arms(a: ast.AST, b: ast.AST, parents) -> bool:
    """Whether a and b lie in the two arms of one `if` statement or conditional expression."""
    arms = {}
    node = a
    while id(node) in parents:
        parent, field = parents[id(node)]
        if isinstance(parent, (ast.If, ast.IfExp)) and field in ("body", "orelse"):
            arms[id(parent)] = field
        node = parent
    node = b
    while id(node) in parents:
        parent, field = parents[id(node)]
        if isinstance(parent, (ast.If, ast.IfExp)) and field in ("body", "orelse") and arms.get(id(parent)) not in (None, field):
            return True
        node = parent
    return False
