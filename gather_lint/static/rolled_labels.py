"""GL007: next-token labels made with `torch.roll(ids, -1, dims=d)` wrap the first token to the end.

`roll` shifts the labels left as `ids[:, 1:]` would, but the last position receives token 0 of the same
row, so the last logits are scored against the first token. Found by syntax, one function (or a
script's top level) at a time: a name assigned `torch.roll(x, -1, d)` / `x.roll(shifts=-1, dims=d)` is
the index of a gather (bare, `.unsqueeze(..)` or `[..., None]`), and the gathered values are

- weighted by a mask rolled the same way (the wrapped position takes the first position's mask), or
- summed or averaged right there, unmasked;

or the rolled labels are the target of a token loss (`F.cross_entropy`, `F.nll_loss`, a local
`nn.CrossEntropyLoss()`), which counts the wrapped position.

A roll over dim 0 is left alone: it is as often the batch dim (in-batch negatives). Silent when the scope
cuts or overwrites the last position anywhere (a `:-1` slice, a write at `-1`),
weights by a mask that was not rolled, or hands the values on (the caller may cut them).
"""
from __future__ import annotations

import ast
import re
from typing import Dict, Iterator, Optional, Tuple

from ..rules import gl007_shift_misalignment as rule
from .tree_walk import last_name, own_nodes, scopes, statements
from .text_scan import file_test

_GATHERS = {"gather", "take_along_dim"}
_KEEPS_POSITIONS = {"squeeze", "float", "double", "to", "detach", "clone", "contiguous", "neg"}
_REDUCES = {"sum", "mean", "nansum", "nanmean"}


_LEFT_ROLL = re.compile(r"roll\([^\n]{0,80}?-\s*1\b")  # a roll by -1 (shifts=-1, (-1,)); checked after a cheap test
_USES = ("gather", "take_along_dim", "cross_entropy", "nll_loss", "CrossEntropyLoss", "NLLLoss")


@file_test
def spelled_in(text: str) -> bool:
    return "roll(" in text and any(word in text for word in _USES) and _LEFT_ROLL.search(text) is not None


def check_module(tree: ast.Module) -> Iterator[Tuple[ast.AST, object]]:
    loss_attributes = _loss_attributes(tree)
    for scope in scopes(tree):
        yield from _check_scope(scope, loss_attributes)


def _loss_attributes(tree) -> frozenset:
    """`self.criterion = nn.CrossEntropyLoss()` anywhere in the file: `self.criterion(...)` is a token loss."""
    return frozenset(
        node.targets[0].attr for node in statements(tree)  # an assignment is a statement
        if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Attribute)
        and isinstance(node.targets[0].value, ast.Name) and node.targets[0].value.id == "self"
        and isinstance(node.value, ast.Call) and last_name(node.value.func) in _LOSS_MODULES)


def _left_roll(value) -> Optional[Tuple[ast.AST, str]]:
    """(node, dims text) of `torch.roll(x, -1, d)` or `x.roll(-1, d)` with keywords; the dims must be given."""
    if not isinstance(value, ast.Call) or last_name(value.func) != "roll":
        return None
    args = list(value.args)
    if isinstance(value.func, ast.Attribute) and not (isinstance(value.func.value, ast.Name) and value.func.value.id == "torch"):
        args = [value.func.value] + args
    bound = dict(zip(("input", "shifts", "dims"), args))
    bound.update({k.arg: k.value for k in value.keywords if k.arg in ("input", "shifts", "dims")})
    shifts, dims = bound.get("shifts"), bound.get("dims")
    if dims is None or not _minus_one(shifts) or _zero(dims):
        return None  # dim 0 is as often the batch: `torch.roll(items, -1, 0)` pairs each row with the next one's
    return value, ast.unparse(dims)


def _zero(node) -> bool:
    if isinstance(node, (ast.Tuple, ast.List)) and len(node.elts) == 1:
        node = node.elts[0]
    return isinstance(node, ast.Constant) and node.value == 0


def _minus_one(node) -> bool:
    if isinstance(node, (ast.Tuple, ast.List)) and len(node.elts) == 1:
        node = node.elts[0]
    return isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub) and \
        isinstance(node.operand, ast.Constant) and node.operand.value == 1


def _key(node) -> Optional[str]:
    """A labels name, or the key of a roll written inline (`gather(-1, torch.roll(ids, -1, 1)[..., None])`)."""
    if isinstance(node, ast.Name):
        return node.id
    return _inline(node) if _left_roll(node) is not None else None


def _inline(roll: ast.Call) -> str:
    return f"@{roll.lineno}:{roll.col_offset}"


def _index_name(index) -> Optional[str]:
    """`r`, `r.unsqueeze(-1)`, `r[..., None]`, `r[:, :, None]`: the name under the added dim."""
    if isinstance(index, ast.Call) and last_name(index.func) == "unsqueeze" and isinstance(index.func, ast.Attribute):
        index = index.func.value
    elif isinstance(index, ast.Subscript):
        index = index.value
    return _key(index)


def _gather_index(call) -> Optional[ast.AST]:
    if not isinstance(call, ast.Call) or last_name(call.func) not in _GATHERS:
        return None
    keywords = {k.arg: k.value for k in call.keywords}
    if "index" in keywords or "indices" in keywords:
        return keywords.get("index", keywords.get("indices"))
    method = isinstance(call.func, ast.Attribute) and not (isinstance(call.func.value, ast.Name) and call.func.value.id == "torch")
    position = {("gather", True): 1, ("gather", False): 2, ("take_along_dim", True): 0,
                ("take_along_dim", False): 1}[(last_name(call.func), method)]
    return call.args[position] if len(call.args) > position else None


def _strip(node):
    """The gather call under `.squeeze(-1)`, `.float()`, `-x`, ...: calls that keep every position."""
    while True:
        if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
            node = node.operand
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr in _KEEPS_POSITIONS:
            node = node.func.value
        else:
            return node


def _cuts_last_position(nodes) -> bool:
    """A `:-1` slice anywhere, or a write at position -1 (`labels[:, -1] = -100`, `valid[-1] = False`)."""
    for node in nodes:
        if isinstance(node, ast.Slice) and node.upper is not None and _minus_one(node.upper):
            return True
        if isinstance(node, ast.Subscript) and isinstance(node.ctx, ast.Store):
            if any(_minus_one(part) for part in ast.walk(node.slice)):
                return True
        if isinstance(node, ast.Call) and last_name(node.func) in ("pad", "cat", "narrow"):
            return True  # a label or mask column may be put back at the end
    return False


def _check_scope(scope, loss_attributes=frozenset()) -> Iterator[Tuple[ast.AST, object]]:
    nodes = own_nodes(scope)
    rolled: Dict[str, Tuple[ast.AST, str]] = {}
    gathered: Dict[str, Tuple[ast.AST, str]] = {}  # values name -> (gather call, rolled labels name)
    for node in nodes:  # also rolls written inline, as an index or a loss target
        roll = _left_roll(node)
        if roll is not None:
            rolled[_inline(node)] = roll
    for node in nodes:
        if not (isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name)):
            continue
        name, value = node.targets[0].id, node.value
        roll = _left_roll(value)
        if roll is not None:
            rolled[name] = roll
            continue
        call = _strip(value)
        index = _gather_index(call)
        labels = _index_name(index) if index is not None else None
        if labels in rolled:
            gathered[name] = (call, labels)
    if not rolled or _cuts_last_position(nodes):
        return
    for node in nodes:  # a token loss of the rolled labels counts the wrapped one
        target = _loss_target(node, nodes, loss_attributes)
        if target is not None and target in rolled:
            roll, dims = rolled[target]
            yield node, rule.rolled_labels(ast.unparse(roll), _shown(target), dims, None, loss=last_name(node.func))
    if not gathered:
        return
    for node in nodes:  # weighted by a mask that was not rolled: that mask may drop the last position
        if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Mult):
            sides = (_strip(node.left), _strip(node.right))
            for values, other in (sides, sides[::-1]):
                if isinstance(values, ast.Name) and values.id in gathered and \
                        not (isinstance(other, ast.Name) and other.id in rolled) and not isinstance(other, ast.Constant):
                    gathered.pop(values.id)
    if not gathered:
        return
    for node in nodes:
        found = _wrapped_use(node, gathered, rolled)
        if found is not None:
            call, labels, mask = found
            roll, dims = rolled[labels]
            yield call, rule.rolled_labels(ast.unparse(roll), _shown(labels), dims, mask)
            gathered = {k: v for k, v in gathered.items() if v[0] is not call}  # once per gather


_LOSSES = {"cross_entropy", "nll_loss"}
_LOSS_MODULES = {"CrossEntropyLoss", "NLLLoss"}
_FLATTENS = {"view", "reshape", "flatten", "contiguous", "long", "to"}


def _loss_target(node, nodes, loss_attributes=frozenset()) -> Optional[str]:
    """The labels name of `F.cross_entropy(x, labels.view(-1))`, of a local `nn.CrossEntropyLoss()` call, or of
    `self.criterion(...)` where the file set `self.criterion = nn.CrossEntropyLoss()`."""
    if not isinstance(node, ast.Call) or len(node.args) + len(node.keywords) < 2:
        return None
    func = node.func
    loss = last_name(func) in _LOSSES or (isinstance(func, ast.Name) and _loss_module(func.id, nodes)) or (
        isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name) and func.value.id == "self"
        and func.attr in loss_attributes)
    if not loss:
        return None
    target = node.args[1] if len(node.args) > 1 else next((k.value for k in node.keywords if k.arg == "target"), None)
    while isinstance(target, ast.Call) and isinstance(target.func, ast.Attribute) and target.func.attr in _FLATTENS:
        target = target.func.value
    return _key(target) if target is not None else None


def _loss_module(name: str, nodes) -> bool:
    return any(isinstance(n, ast.Assign) and len(n.targets) == 1 and isinstance(n.targets[0], ast.Name)
               and n.targets[0].id == name and isinstance(n.value, ast.Call) and last_name(n.value.func) in _LOSS_MODULES
               for n in nodes)


def _shown(key: str) -> Optional[str]:
    return None if key.startswith("@") else key


def _wrapped_use(node, gathered, rolled):
    """(gather, labels name, rolled mask name or None) where the wrapped value is counted."""
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Mult):
        sides = (_strip(node.left), _strip(node.right))
        for values, mask in (sides, sides[::-1]):
            if isinstance(values, ast.Name) and values.id in gathered and isinstance(mask, ast.Name):
                if mask.id in rolled:
                    call, labels = gathered[values.id]
                    return call, labels, mask.id
        return None
    if isinstance(node, ast.Call) and last_name(node.func) in _REDUCES:
        func = node.func
        target = func.value if isinstance(func, ast.Attribute) and not (
            isinstance(func.value, ast.Name) and func.value.id == "torch") else (node.args[0] if node.args else None)
        target = _strip(target) if target is not None else None
        if isinstance(target, ast.Name) and target.id in gathered:
            call, labels = gathered[target.id]
            return call, labels, None
    return None
