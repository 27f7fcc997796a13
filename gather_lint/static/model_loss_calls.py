"""GL007 through a model's own loss: `model(input_ids, labels=input_ids)` on a model class of the file whose
`forward` hands its logits and its labels parameter to a per-token gathering helper.

A causal LM's forward computes logits at the positions of its ids parameter; when it passes them, with a
labels parameter, to a helper that gathers the labels per position, the call `model(ids, labels=ids)` pairs
the logits at t with the id at t (the helper's own slices, if any, apply). The summary of such a class is
(ids parameter, labels parameter, the helper's summary), found only where it is certain:

* the logits argument is a name that forward assigns once, from expressions that read the ids parameter
  and take no subscript and call nothing that moves positions (`cat`, `pad`, `roll`, a shift): layers,
  arithmetic and matmul keep every position where it was;
* the labels argument is a parameter of forward itself, passed as it came (a slice there is a shift).

A forward that gathers the labels itself (`logp.gather(-1, labels.unsqueeze(-1))`, also through
`labels.masked_fill(...)`/`.clamp(...)`) is summarised the same way, with the gather as the helper; so is
one that scores them with a per-token loss (`loss_fct(logits.view(-1, V), labels.view(-1))`, token_losses).
"""
from __future__ import annotations

import ast
from typing import Dict, List, Optional

from . import forward_shifts, helper_aliases, omitted_arguments, token_losses, tree_walk
from .causal_models import _REALIGNING
from .token_windows import FULL


def summaries(tree: ast.Module, helpers: Dict[str, tuple], holds_gather, loss_modules=None, aliases=None,
              used=lambda class_name: True) -> Dict[str, tuple]:
    """Class name -> (ids parameter, labels parameter, forward's positional parameters, helper summary,
    helper name, logits text) for the file's classes whose forward gathers its labels from its logits.
    `used(name)`: whether the file can hold a model of the class (a library's heads are built elsewhere)."""
    found: Dict[str, tuple] = {}
    for cls in tree.body:
        if not isinstance(cls, ast.ClassDef) or not used(cls.name):
            continue
        forward = next((n for n in cls.body if isinstance(n, ast.FunctionDef) and n.name == "forward"), None)
        # only a forward holding a gathering call (`holds_gather(fn)`) can pair anything: no walk of the others
        summary = _summary(forward, helpers, loss_modules, aliases or {}) \
            if forward is not None and holds_gather(forward) else None
        if summary is not None:
            found[cls.name] = summary
    return found


def _summary(forward: ast.FunctionDef, helpers: Dict[str, tuple], loss_modules=None, aliases=None) -> Optional[tuple]:
    params = [a.arg for a in forward.args.posonlyargs + forward.args.args][1:]  # without self
    if len(params) < 2:
        return None
    ids = params[0]
    nodes = tree_walk.all_nodes(forward)  # one walk, read by each question below
    assigned = _Assigned(_without_casts_of(params, {**_single_assignments(forward, nodes), **_rebinds(nodes, params)}))
    assigned.every = _every_assignment(nodes)
    calls = [n for n in nodes if isinstance(n, ast.Call)]
    for call in calls:
        helper = call.func.id if isinstance(call.func, ast.Name) else helper_aliases.called_function(call, aliases or {})
        if helper not in helpers or omitted_arguments.passed(call, helpers[helper][5] if len(helpers[helper]) > 5 else ()):
            continue
        first, second = helpers[helper][:2]
        if max(first, second) >= len(call.args) or any(isinstance(a, ast.Starred) for a in call.args):
            continue
        logits, labels = call.args[first], call.args[second]
        if isinstance(labels, ast.Name) and labels.id in params and labels.id != ids \
                and _keeps_positions_of(logits, ids, assigned, set()):
            return (ids, labels.id, tuple(params), helpers[helper], ast.unparse(call.func), ast.unparse(logits))
    found = _inline_gather(calls, params, ids, assigned)
    return found if found is not None or loss_modules is None else _inline_loss(calls, params, ids, assigned, loss_modules)


def _rebinds(nodes, params: List[str]) -> Dict[str, ast.expr]:
    """`logits = logits.view(B * T, C)` after `logits = head(x)`: one expression for what the name finally holds
    (the first value under the second's calls); a parameter rebound so (`targets = targets.view(B * T)`) stays
    readable as the parameter under those calls. Names bound any other way are left to _single_assignments."""
    values: Dict[str, list] = {}
    for node in sorted((n for n in nodes if isinstance(n, (ast.Assign, ast.AugAssign, ast.AnnAssign))),
                       key=lambda n: (n.lineno, n.col_offset)):
        targets = node.targets if isinstance(node, ast.Assign) else [node.target]
        for target in targets:
            for name in ast.walk(target):
                if isinstance(name, ast.Name) and isinstance(name.ctx, ast.Store):
                    values.setdefault(name.id, []).append(node.value if isinstance(node, ast.Assign) and target is name else None)
    out: Dict[str, ast.expr] = {}
    for name, seen in values.items():
        first = None if name in params else (seen[0] if len(seen) == 2 else None)
        last = seen[-1]
        if len(seen) != (1 if name in params else 2) or last is None or (first is None and name not in params):
            continue
        receiver = _innermost_receiver(last)
        if not (isinstance(receiver, ast.Name) and receiver.id == name):
            continue
        out[name] = _with_receiver(last, first) if first is not None else last
    return out


def _same_name(a, b) -> bool:
    return isinstance(a, ast.Name) and isinstance(b, ast.Name) and a.id == b.id


def _innermost_receiver(node):
    while isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
        node = node.func.value
    return node


def _with_receiver(node, inner):
    """A copy of the call chain `node` with its innermost receiver replaced by `inner`."""
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
        func = ast.Attribute(value=_with_receiver(node.func.value, inner), attr=node.func.attr, ctx=ast.Load())
        return ast.copy_location(ast.Call(func=func, args=node.args, keywords=node.keywords), node)
    return inner


def _without_casts_of(params: List[str], assigned: Dict[str, Optional[ast.expr]]) -> Dict[str, Optional[ast.expr]]:
    """`labels = labels.to(logits.device)`: the parameter as it came (a cast keeps every position)."""
    out = dict(assigned)
    for name in params:
        value = out.get(name)
        while isinstance(value, ast.Call) and isinstance(value.func, ast.Attribute) and value.func.attr in _KEEPS_IDS:
            value = value.func.value
        if isinstance(value, ast.Name) and value.id == name:
            del out[name]
    return out


def _inline_loss(calls: List[ast.Call], params: List[str], ids: str, assigned, modules) -> Optional[tuple]:
    """forward scores a labels parameter with a per-token loss of its logits: `loss_fct(logits.view(-1, V),
    labels.view(-1))` (or `shift_logits`/`shift_labels` cut from them, read as forward_shifts does)."""
    for call in calls:
        pair = token_losses.scored_pair(call, modules)
        if pair is None:
            continue
        source, target = _flat_operands(pair, assigned)
        if source is None:
            continue
        if isinstance(target, ast.Name) and target.id in params and target.id != ids and \
                (target.id not in assigned or _same_name(_innermost_receiver(assigned[target.id]), target)) \
                and _keeps_positions_of(source, ids, assigned, set()):
            return (ids, target.id, tuple(params), (0, 1, FULL, FULL, call), ast.unparse(call.func), ast.unparse(source))
        column = ast.Call(func=ast.Attribute(value=target, attr="unsqueeze", ctx=ast.Load()),
                          args=[ast.Constant(value=-1)], keywords=[])  # read like a gather's index
        sliced = forward_shifts.sliced_pair(source, column, ids, params, assigned, _keeps_positions_of)
        if sliced is not None:
            labels, logits_window, labels_window = sliced
            return (ids, labels, tuple(params), (0, 1, logits_window, labels_window, call), ast.unparse(call.func),
                    ast.unparse(source))
    return None


def _flat_operands(pair, assigned):
    """The logits and labels under a per-token loss's flattening (`x.view(-1, V)`, `y.view(-1)`), also through
    a name assigned once so; (None, None) when either side is not flattened as its role needs."""
    source, target, flattened = pair
    if not flattened:
        return source, target
    out = []
    for node, role in ((source, "logits"), (target, "ids")):
        for _ in range(4):
            if isinstance(node, ast.Name) and assigned.get(node.id) is not None:
                node = assigned[node.id]
            elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr in _KEEPS_IDS:
                node = node.func.value
            else:
                break
        if not (isinstance(node, ast.Call) and token_losses.flattening(node) == role):
            return None, None
        out.append(token_losses.flattened(node))
    return tuple(out)


_KEEPS_IDS = ("masked_fill", "clamp", "clamp_min", "long", "to", "contiguous", "detach")


def _inline_gather(calls: List[ast.Call], params: List[str], ids: str, assigned) -> Optional[tuple]:
    """forward gathers a labels parameter per position itself: `logp.gather(-1, labels.unsqueeze(-1))`
    with logp computed from the ids without a subscript."""
    for call in calls:
        if not isinstance(call.func, ast.Attribute) or call.func.attr != "gather":
            continue
        if isinstance(call.func.value, ast.Name) and call.func.value.id == "torch":
            if len(call.args) < 3:
                continue
            source, index = call.args[0], call.args[2]
        elif len(call.args) >= 2:
            source, index = call.func.value, call.args[1]
        elif any(k.arg == "index" for k in call.keywords):  # logp.gather(dim=-1, index=...)
            source, index = call.func.value, next(k.value for k in call.keywords if k.arg == "index")
        else:
            continue
        for _ in range(2):  # `index = labels.unsqueeze(-1)` on a line of its own: the expression it names
            if isinstance(index, ast.Name) and assigned.get(index.id) is not None:
                index = assigned[index.id]
        labels = _column_root(index, assigned)
        if labels is not None and labels in params and labels != ids and _keeps_positions_of(source, ids, assigned, set()):
            return (ids, labels, tuple(params), (0, 1, FULL, FULL, call), "gather", ast.unparse(source))
        # the usual causal-LM forward shifts both itself: logits[..., :-1, :] against labels[..., 1:]
        sliced = forward_shifts.sliced_pair(source, index, ids, params, assigned, _keeps_positions_of)
        if sliced is not None:
            labels, logits_window, labels_window = sliced
            return (ids, labels, tuple(params), (0, 1, logits_window, labels_window, call), "gather", ast.unparse(source))
    return None


def _column_root(index: ast.expr, assigned) -> Optional[str]:
    """`labels.unsqueeze(-1)` (also through `safe = labels.masked_fill(...)`): the parameter's name."""
    if not (isinstance(index, ast.Call) and isinstance(index.func, ast.Attribute) and index.func.attr == "unsqueeze"):
        return None
    node = index.func.value
    for _ in range(4):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr in _KEEPS_IDS:
            node = node.func.value
        elif isinstance(node, ast.Name) and assigned.get(node.id) is not None:
            node = assigned[node.id]
        else:
            break
    return node.id if isinstance(node, ast.Name) and node.id not in assigned else None


def _stored_names(target):
    """The names an assignment target binds or reads (a Name, a tuple of them: no walk needed)."""
    if isinstance(target, ast.Name):
        return (target,)
    if isinstance(target, (ast.Tuple, ast.List)) and all(isinstance(e, ast.Name) for e in target.elts):
        return target.elts
    return ast.walk(target)


def _single_assignments(fn: ast.FunctionDef, nodes=None) -> Dict[str, Optional[ast.expr]]:
    """name -> the expression assigned to it, or None when it is bound more than once (or not by `=`)."""
    out: Dict[str, Optional[ast.expr]] = {}
    for node in (nodes if nodes is not None else ast.walk(fn)):
        if isinstance(node, ast.Assign):
            for target in node.targets:
                for name in _stored_names(target):
                    if isinstance(name, ast.Name) and isinstance(name.ctx, ast.Store):
                        # `h, _ = self.rnn(x)`: each name holds a part of what the call computed
                        single = isinstance(target, (ast.Name, ast.Tuple)) and name.id not in out
                        out[name.id] = node.value if single else None
        elif isinstance(node, (ast.AugAssign, ast.AnnAssign, ast.For, ast.With, ast.NamedExpr)):
            for name in ast.walk(getattr(node, "target", node)) if isinstance(node, ast.With) else \
                    _stored_names(node.target):
                if isinstance(name, ast.Name) and isinstance(name.ctx, ast.Store):
                    out[name.id] = None
    return out


def _keeps_positions_of(node: ast.expr, ids: str, assigned: Dict[str, Optional[ast.expr]], seen: set) -> bool:
    """The expression reads the ids parameter through names assigned once (or rebound through layers,
    `x = block(x)`), with no subscript and no call that moves positions on the way."""
    reads = _plain_reads(node)
    if reads is None:
        return False
    if ids in reads:
        return True
    every = getattr(assigned, "every", {})
    for name in reads:
        if name in seen or name not in assigned:
            continue
        seen.add(name)
        value = assigned[name]
        if value is not None and _keeps_positions_of(value, ids, assigned, seen):
            return True
        values = every.get(name)
        # `x = emb(ids); x = self.blocks(x); x = self.norm(x)`: each rebinding reads positions as they are
        if value is None and values and all(v is not None and _plain_reads(v) is not None for v in values) \
                and _keeps_positions_of(values[0], ids, assigned, seen):
            return True
    return False


def _plain_reads(node: ast.expr) -> Optional[List[str]]:
    """The names an expression reads, or None when it takes a subscript or calls what moves positions."""
    reads: List[str] = []
    for part in ast.walk(node):
        if isinstance(part, ast.Subscript):
            return None
        if isinstance(part, ast.Call):
            func = part.func
            name = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")
            if name in _REALIGNING or "shift" in name.lower():
                return None
        if isinstance(part, ast.Name) and isinstance(part.ctx, ast.Load):
            reads.append(part.id)
    return reads


class _Assigned(dict):
    """name -> its single assignment (see _single_assignments), with `every`: name -> all the values a plain
    `name = ...` gave it, in source order."""

    every: Dict[str, list] = {}


def _every_assignment(nodes) -> Dict[str, list]:
    """Each name's values in source order: `h, _ = rnn(h)` gives h the whole call; a binding this cannot
    read (`+=`, a loop or `with` target, a walrus) gives None."""
    out: Dict[str, list] = {}
    binders = (ast.Assign, ast.AugAssign, ast.AnnAssign, ast.For, ast.AsyncFor, ast.With, ast.AsyncWith, ast.NamedExpr)
    for node in sorted((n for n in nodes if isinstance(n, binders)), key=lambda n: (n.lineno, n.col_offset)):
        if isinstance(node, ast.Assign):
            targets, value = node.targets, node.value
        elif isinstance(node, (ast.With, ast.AsyncWith)):
            targets, value = [i.optional_vars for i in node.items if i.optional_vars is not None], None
        else:
            targets, value = [node.target], None
        for target in targets:
            for name in ast.walk(target):
                if isinstance(name, ast.Name) and isinstance(name.ctx, ast.Store):
                    out.setdefault(name.id, []).append(value)
    return out


def bound_arguments(call: ast.Call, summary: tuple) -> Optional[tuple]:
    """(ids argument, labels argument) of `model(...)` for a summarised class, or None when not both given."""
    ids, labels, params = summary[:3]
    if any(isinstance(a, ast.Starred) for a in call.args) or any(k.arg is None for k in call.keywords):
        return None
    by_name = dict(zip(params, call.args))
    by_name.update({k.arg: k.value for k in call.keywords})
    return (by_name[ids], by_name[labels]) if ids in by_name and labels in by_name else None
