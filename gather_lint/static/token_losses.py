"""Per-token losses that pair logits with labels position by position, like a per-token gather.

`F.cross_entropy(logits.view(-1, V), labels.view(-1))` scores the logits at (b, t) against the label at
(b, t): both sides are flattened the same way, so the pairing of positions is that of the tensors before
the flattening. The same holds for `F.nll_loss`, a `nn.CrossEntropyLoss()`/`nn.NLLLoss()` module bound to
a name (or to `self.<attr>` anywhere in the file) and called, and for the class-dim-1 spelling
`F.cross_entropy(logits.transpose(1, 2), labels)`. Found by syntax: what token_shift's windows need is
which tensor is the input and which the target.
"""
from __future__ import annotations

import ast
from typing import FrozenSet, Optional, Tuple

from . import text_scan, tree_walk
from .text_scan import file_test

_FUNCTIONS = ("cross_entropy", "nll_loss")
_MODULES = ("CrossEntropyLoss", "NLLLoss")


@file_test
def spelled_in(text: str) -> bool:
    """Whether a per-token loss can be called in the text (a cheap test before any walk)."""
    return text_scan.has_call(text, _FUNCTIONS + _MODULES)


def call_names(modules: FrozenSet[str]) -> FrozenSet[str]:
    """Names whose calls can be a per-token loss, for the line scan that picks the functions to run:
    the functions, the modules (called at once) and the names and `self.<attr>`s bound to a module."""
    return frozenset(_FUNCTIONS + _MODULES) | modules


def module_bindings(text: str, assigns) -> FrozenSet[str]:
    """`loss_fct = nn.CrossEntropyLoss()` / `self.criterion = nn.NLLLoss(...)` among the file's assignment
    statements `assigns`: the bound names (none looked for unless the text builds such a module)."""
    if not text_scan.has_call(text, _MODULES):
        return frozenset()
    found = set()
    for node in assigns:
        if len(node.targets) == 1 and builds_module(node.value):
            target = node.targets[0]
            if isinstance(target, ast.Name):
                found.add(target.id)
            elif isinstance(target, ast.Attribute) and isinstance(target.value, ast.Name) and target.value.id == "self":
                found.add(target.attr)
    return frozenset(found)


def builds_module(node) -> bool:
    """`nn.CrossEntropyLoss(...)`, `torch.nn.NLLLoss(...)`, `CrossEntropyLoss(...)`."""
    return isinstance(node, ast.Call) and tree_walk.last_name(node.func) in _MODULES


def scored_pair(call: ast.Call, modules: FrozenSet[str]) -> Optional[Tuple[ast.expr, ast.expr, bool]]:
    """(input, target, flattened) of a per-token loss call; `modules` are the names (and self attributes)
    bound to loss modules. `flattened` says the input is `x.view(-1, V)`-like; otherwise it is given with
    its classes on dim 1 (`x.transpose(1, 2)`), and the caller reads the tensors under the transposition."""
    func = call.func
    name = tree_walk.last_name(func)
    if name in _FUNCTIONS and (isinstance(func, ast.Name) or _is_functional(func.value)):
        pass
    elif isinstance(func, ast.Name) and func.id in modules:
        pass
    elif isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name) and func.value.id == "self" \
            and func.attr in modules:
        pass
    elif builds_module(func):  # nn.CrossEntropyLoss()(logits, labels)
        pass
    else:
        return None
    if any(isinstance(a, ast.Starred) for a in call.args) or any(k.arg is None for k in call.keywords):
        return None
    bound = dict(zip(("input", "target"), call.args))
    bound.update({k.arg: k.value for k in call.keywords if k.arg in ("input", "target")})
    if "input" not in bound or "target" not in bound:
        return None
    classes_first = _classes_moved_to_dim_one(bound["input"])
    if classes_first is not None:
        return classes_first, bound["target"], False
    return bound["input"], bound["target"], True


def _classes_moved_to_dim_one(node) -> Optional[ast.expr]:
    """`x.transpose(1, 2)`, `x.transpose(-1, -2)`, `x.permute(0, 2, 1)`: x (logits [B, L, V] given as [B, V, L])."""
    if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)):
        return None
    args = [a.value if isinstance(a, ast.Constant) else a for a in node.args]
    if node.func.attr in ("transpose", "swapaxes") and sorted(map(str, args)) in (["1", "2"], ["-1", "-2"], ["-1", "1"]):
        return node.func.value
    if node.func.attr == "permute" and args == [0, 2, 1]:
        return node.func.value
    return None


def scores_what_it_feeds(fn: ast.FunctionDef, modules: FrozenSet[str]) -> bool:
    """Whether a per-token loss in fn scores a tensor (or a copy or cut of it, through one assignment) that fn
    also hands to a call as its first argument (a model fed the ids): the only way a loss in fn alone can pair
    logits with the ids they were computed from. Cheaper than running fn to find out."""
    nodes = tree_walk.all_nodes(fn)  # one walk, read twice below
    calls = [n for n in nodes if isinstance(n, ast.Call)]
    targets = set()
    for call in calls:
        pair = scored_pair(call, modules)
        if pair is not None:
            targets.add(tree_walk.root_name(pair[1]))
    targets.discard(None)
    if not targets:
        return False
    assigned = {t.id: tree_walk.root_name(n.value) for n in nodes if isinstance(n, ast.Assign) for t in n.targets
                if isinstance(t, ast.Name)}
    targets |= {assigned[t] for t in list(targets) if assigned.get(t)}
    fed = {tree_walk.root_name(c.args[0]) for c in calls if c.args and scored_pair(c, modules) is None}
    fed |= {tree_walk.root_name(k.value) for c in calls for k in c.keywords if k.arg in ("input_ids", "ids", "tokens")}
    fed |= {assigned[f] for f in list(fed) if f and assigned.get(f)}
    return bool(targets & fed)


def flattening(call: ast.Call) -> Optional[str]:
    """"logits" for `x.view(-1, V)`/`reshape(-1, V)`/`view(B * T, C)`/`flatten(0, 1)`/`flatten(end_dim=-2)`/
    `rearrange(x, "b t v -> (b t) v")` (rows of classes), "ids" for `x.view(-1)`/`view(B * T)`/`flatten()`/
    `rearrange(y, "b t -> (b t)")`: a flattening that keeps the order of positions."""
    func = call.func
    if any(isinstance(a, ast.Starred) for a in call.args):
        return None
    if tree_walk.last_name(func) == "rearrange":
        return _rearranged(call)
    if not isinstance(func, ast.Attribute):
        return None
    # `B * T`, the product of the leading sizes, reads as -1 does
    args = [a.value if isinstance(a, ast.Constant) else -1 if _product(a) else _negative(a) for a in call.args]
    keywords = {k.arg: (k.value.value if isinstance(k.value, ast.Constant) else _negative(k.value)) for k in call.keywords}
    if func.attr in ("view", "reshape") and not keywords and args[:1] == [-1] and -1 not in args[1:]:
        return "ids" if len(args) == 1 else ("logits" if len(args) == 2 else None)
    if func.attr == "flatten":
        start = args[0] if args else keywords.get("start_dim", 0)
        end = args[1] if len(args) > 1 else keywords.get("end_dim", -1)
        if start == 0 and end == -1 and not args[2:]:
            return "ids"
        if start == 0 and end in (1, -2):
            return "logits"
    return None


def flattened(call: ast.Call) -> Optional[ast.expr]:
    """The tensor a flattening call flattens: the receiver, or rearrange's first argument."""
    if tree_walk.last_name(call.func) == "rearrange":
        return call.args[0] if call.args else None
    return call.func.value if isinstance(call.func, ast.Attribute) else None


def _rearranged(call: ast.Call) -> Optional[str]:
    """einops `rearrange(x, "b t v -> (b t) v")`: "logits"; `rearrange(y, "b t -> (b t)")`: "ids"."""
    pattern = call.args[1] if len(call.args) == 2 else None
    if not (isinstance(pattern, ast.Constant) and isinstance(pattern.value, str)) or call.keywords:
        return None
    left, _, right = pattern.value.partition("->")
    names, out = left.split(), right.replace("(", " ( ").replace(")", " ) ").split()
    if len(names) == 3 and out == ["(", names[0], names[1], ")", names[2]]:
        return "logits"
    if len(names) == 2 and out == ["(", names[0], names[1], ")"]:
        return "ids"
    return None


def _product(node) -> bool:
    """`B * T`: two sizes multiplied."""
    return isinstance(node, ast.BinOp) and isinstance(node.op, ast.Mult)


def _negative(node) -> Optional[int]:
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub) and isinstance(node.operand, ast.Constant):
        return -node.operand.value if isinstance(node.operand.value, int) else None
    return None


def _is_functional(node) -> bool:
    return isinstance(node, ast.Name) and node.id in ("F", "functional", "torch") or \
        isinstance(node, ast.Attribute) and ast.unparse(node) in ("torch.nn.functional", "nn.functional")
