"""Batches that arrive already shifted: a Dataset's `__getitem__`, a collate function or a `get_batch`
helper that returns `seq[:-1]` and `seq[1:]` of one sequence (inputs and next-token labels).

The pair reaches the model through a loop over a DataLoader (`for ids, labels in loader`, also under
`enumerate`), `next(iter(loader))`, indexing the dataset, or a call of the helper. token_shift binds the
unpacked names to windows of one shared sequence, so a forward that shifts its labels again is checked
against what the data pipeline already did. Found syntactically: one `return` of a tuple whose items
are slices (through `torch.tensor(...)`, `.long()`, names assigned once) of the same name.

Labels returned as a copy of the inputs (`labels = input_ids.clone()`, `.masked_fill(pad, -100)`, the
causal-LM collator's way) are windows too, the whole sequence each: a forward that never shifts them
scores every token at its own position. A copy written through a slice afterwards (`labels[:, :-1] = ...`)
may have been shifted there and is not counted.
"""
from __future__ import annotations

import ast
from typing import Dict, Optional, Tuple, Union

from .text_scan import file_test
from .token_windows import FULL, cut_window, linear_of
from .tree_walk import full_slice, last_name

_CONVERTERS = ("tensor", "as_tensor", "LongTensor", "from_numpy")  # keep the positions of the list they copy
_KEEPING = ("long", "clone", "contiguous", "to", "int", "astype", "masked_fill", "copy", "detach")
_LOADERS = ("DataLoader",)

# per returned item: (sequence text, window) or None; a dict producer: {key: (sequence text, window)}
Produced = Union[Tuple[Optional[Tuple[str, tuple]], ...], Dict[str, Tuple[str, tuple]]]


@file_test
def loads(text: str) -> bool:
    """A DataLoader, a collate function or a Dataset's `__getitem__` is spelled: batches may come from a producer."""
    return "collate_fn" in text or "__getitem__" in text or "DataLoader(" in text


class Producers(dict):
    """name -> what it produces; `collators`: the classes among them whose instances are called on a list of
    examples (`__call__`) rather than indexed."""

    collators: frozenset = frozenset()


def producers(tree: ast.Module) -> Dict[str, Produced]:
    """Dataset classes (by `__getitem__`), collator classes (by `__call__`) and functions returning two or more
    windows of one sequence."""
    found: Dict[str, Produced] = Producers()
    collators = set()
    for node in tree.body:
        if isinstance(node, ast.ClassDef):
            methods = {n.name: n for n in node.body if isinstance(n, ast.FunctionDef)}
            made = methods.get("__getitem__") or methods.get("__call__")
            produced = _produced(made) if made is not None else None
            if produced is not None and made.name == "__call__":
                collators.add(node.name)
        elif isinstance(node, ast.FunctionDef):
            produced = _produced(node)
        else:
            continue
        if produced is not None:
            found[node.name] = produced
    found.collators = frozenset(collators)
    return found


def sources(nodes, found: Dict[str, Produced]) -> Dict[str, Tuple[str, bool]]:
    """Variables holding a producer: {name: (producer, iterated as batches)}: `loader = DataLoader(Cls(...))`,
    `ds = Cls(...)` then `DataLoader(ds)`, `DataLoader(..., collate_fn=fn)`. Names bound more than once are left out."""
    counts: Dict[str, int] = {}
    values: Dict[str, ast.expr] = {}
    for node in nodes:
        if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name):
            name = node.targets[0].id
            counts[name] = counts.get(name, 0) + 1
            values[name] = node.value
    out: Dict[str, Tuple[str, bool]] = {}
    for name, value in values.items():
        if counts[name] == 1:
            held = _held(value, values, counts, found)
            if held is not None:
                out[name] = held
    return out


def _held(value, values, counts, found) -> Optional[Tuple[str, bool]]:
    if not isinstance(value, ast.Call):
        return None
    called = last_name(value.func)
    if called in found and called[:1].isupper():
        # the dataset itself (indexed, or iterated item by item), or a collator called on examples
        return called, "call" if called in getattr(found, "collators", ()) else False
    if called not in _LOADERS:
        return None
    collate = next((k.value for k in value.keywords if k.arg == "collate_fn"), None)
    if isinstance(collate, ast.Name) and counts.get(collate.id) == 1:
        collate = values[collate.id]  # collator = Collator(...); DataLoader(..., collate_fn=collator)
    if isinstance(collate, ast.Call):
        collate = collate.func  # collate_fn=Collator(pad_id)
    if collate is not None:
        fn = last_name(collate)
        return (fn, True) if fn in found else None
    dataset = value.args[0] if value.args else next((k.value for k in value.keywords if k.arg == "dataset"), None)
    if isinstance(dataset, ast.Name) and counts.get(dataset.id) == 1:
        dataset = values[dataset.id]
    if isinstance(dataset, ast.Call) and last_name(dataset.func) in found:
        return last_name(dataset.func), True
    return None


def loop_items(target, iterated, held: Dict[str, Tuple[str, bool]], found: Dict[str, Produced]):
    """(names, windows) for `for a, b in loader` / `for i, (a, b) in enumerate(loader)`."""
    if isinstance(iterated, ast.Call) and last_name(iterated.func) == "enumerate" and iterated.args \
            and isinstance(target, ast.Tuple) and len(target.elts) == 2:
        iterated, target = iterated.args[0], target.elts[1]
    if isinstance(iterated, ast.Name) and iterated.id in held:
        return _unpacked(target, found[held[iterated.id][0]])
    direct = _held(iterated, {}, {}, found)  # `for batch in DataLoader(data, collate_fn=fn)`
    return _unpacked(target, found[direct[0]]) if direct is not None and direct[1] else None


def iterates(node, held: Dict[str, Tuple[str, bool]]) -> bool:
    """A `for` statement over a variable holding a producer (directly or under enumerate)."""
    if not isinstance(node, (ast.For, ast.AsyncFor)):
        return False
    iterated = node.iter
    if isinstance(iterated, ast.Call) and last_name(iterated.func) == "enumerate" and iterated.args:
        iterated = iterated.args[0]
    return isinstance(iterated, ast.Name) and iterated.id in held or \
        isinstance(iterated, ast.Call) and last_name(iterated.func) in _LOADERS


def spread(call: ast.Call, keys_of) -> ast.Call:
    """`model(**batch)` of a dict batch with known keys as `model(input_ids=batch["input_ids"], ...)`;
    any other call unchanged. `keys_of(name)`: the batch's keys, or None."""
    spreads = [k for k in call.keywords if k.arg is None]
    if len(spreads) != 1 or not isinstance(spreads[0].value, ast.Name):
        return call
    name = spreads[0].value.id
    keys = keys_of(name)
    if not keys:
        return call
    given = [k for k in call.keywords if k.arg is not None]
    named = {k.arg for k in given}
    added = [ast.keyword(arg=key, value=ast.Subscript(value=ast.Name(id=name, ctx=ast.Load()),
                                                      slice=ast.Constant(value=key), ctx=ast.Load()))
             for key in keys if key not in named]
    return ast.Call(func=call.func, args=call.args, keywords=given + added)


def assigned_items(target, value, held: Dict[str, Tuple[str, bool]], found: Dict[str, Produced]):
    """(names, windows) for `a, b = next(iter(loader))`, `a, b = dataset[i]`, `a, b = get_batch(...)`."""
    if isinstance(value, ast.Call) and last_name(value.func) == "next" and value.args \
            and isinstance(value.args[0], ast.Call) and last_name(value.args[0].func) == "iter" and value.args[0].args:
        inner = value.args[0].args[0]
        if isinstance(inner, ast.Name) and inner.id in held:
            return _unpacked(target, found[held[inner.id][0]])
        return None
    if isinstance(value, ast.Subscript) and isinstance(value.value, ast.Name) and value.value.id in held \
            and not held[value.value.id][1]:
        return _unpacked(target, found[held[value.value.id][0]])
    if isinstance(value, ast.Call) and isinstance(value.func, ast.Name) and value.func.id in found \
            and not value.func.id[:1].isupper():
        return _unpacked(target, found[value.func.id])
    if isinstance(value, ast.Call) and isinstance(value.func, ast.Name) and held.get(value.func.id, (None, None))[1] == "call":
        return _unpacked(target, found[held[value.func.id][0]])  # collator(examples)
    if isinstance(value, ast.Call) and isinstance(value.func, ast.Call) and \
            last_name(value.func.func) in getattr(found, "collators", ()):
        return _unpacked(target, found[last_name(value.func.func)])  # Collator(...)(examples)
    return None


def _unpacked(target, produced: Produced):
    """[(name, window)] for a tuple unpacked into names; [(name, {key: window})] for a dict bound to a name."""
    if isinstance(produced, dict):
        return [(target.id, produced)] if isinstance(target, ast.Name) else None
    if not isinstance(target, (ast.Tuple, ast.List)) or len(target.elts) != len(produced):
        return None
    return [(item.id, window) for item, window in zip(target.elts, produced)
            if isinstance(item, ast.Name) and window is not None]


def _produced(fn: ast.FunctionDef) -> Optional[Produced]:
    """Per returned item of a tuple, or per (key, item) of a dict with string keys: (sequence, window)."""
    nodes = list(ast.walk(fn))
    returns = [n for n in nodes if isinstance(n, ast.Return)]
    if len(returns) != 1:
        return None
    made = returns[0].value
    assigned = _single_assignments(fn)
    for name in _sliced_writes(nodes):
        assigned[name] = None  # `labels[:, :-1] = ids[:, 1:]`: no longer what its assignment made
    if isinstance(made, ast.Call) and last_name(made.func) == "dict" and not made.args and made.keywords \
            and all(k.arg for k in made.keywords):  # dict(input_ids=..., labels=...)
        made = ast.Dict(keys=[ast.Constant(value=k.arg) for k in made.keywords], values=[k.value for k in made.keywords])
    if isinstance(made, ast.Dict) and made.keys and all(isinstance(k, ast.Constant) and isinstance(k.value, str) for k in made.keys):
        windows = _shared(tuple(_window_of(item, assigned) for item in made.values))
        return None if windows is None else {key.value: window for key, window in zip(made.keys, windows) if window}
    if not isinstance(made, ast.Tuple):
        return None
    return _shared(tuple(_window_of(item, assigned) for item in made.elts))


def _shared(items):
    """The items that are windows of a sequence another item also cuts (or copies whole)."""
    roots = [item[0] for item in items if item is not None]
    shared = {root for root in roots if roots.count(root) > 1}
    if not shared:
        return None
    items = tuple(item if item is not None and item[0] in shared else None for item in items)
    return items  # windows a step apart, or copies of one whole sequence


def fills_constant(stmt) -> bool:
    """`x[...] = -100` / `x[mask] = IGNORE_INDEX`: a write of one value, which moves no token."""
    value = stmt.value if isinstance(stmt, ast.Assign) else None
    if isinstance(value, ast.UnaryOp) and isinstance(value.op, ast.USub):
        value = value.operand
    return isinstance(value, ast.Constant) or isinstance(value, (ast.Name, ast.Attribute)) and (
        (value.id if isinstance(value, ast.Name) else value.attr).isupper() or "ignore" in ast.unparse(value).lower()
        or "pad" in ast.unparse(value).lower())


def _sliced_writes(nodes):
    """Names written through a bounded slice (`labels[:, :-1] = ...`, `x[..., 1:] = ...`) with something other
    than one value (`labels[:, :n] = -100` only masks)."""
    for node in nodes:
        if isinstance(node, ast.Assign) and fills_constant(node):
            continue
        targets = node.targets if isinstance(node, ast.Assign) else [node.target] if isinstance(node, ast.AugAssign) else []
        for target in targets:
            if isinstance(target, ast.Subscript) and isinstance(target.value, ast.Name) and any(
                    isinstance(part, ast.Slice) and (part.lower is not None or part.upper is not None)
                    for part in ast.walk(target.slice)):
                yield target.value.id


def _window_of(node, assigned) -> Optional[Tuple[str, tuple]]:
    """(sequence name, window) of `torch.tensor(seq[1:])`, `seq[:, :-1].long()`, a name assigned once so."""
    named = None  # the last name on the way: a sequence made by an expression no window describes
    for _ in range(6):
        if isinstance(node, ast.Name):
            named = node.id
        called = last_name(node.func) if isinstance(node, ast.Call) else None
        if called == "stack" and node.args and isinstance(node.args[0], ast.ListComp):
            node = node.args[0].elt  # torch.stack([data[i + 1:i + 1 + n] for i in starts]): each row's window
        elif called in _CONVERTERS and node.args:
            node = node.args[0]  # torch.tensor(seq[1:], dtype=...)
        elif called in _KEEPING and isinstance(node.func, ast.Attribute):
            node = node.func.value  # seq[:, 1:].long()
        elif called == "unsqueeze" and isinstance(node.func, ast.Attribute) and len(node.args) == 1 \
                and isinstance(node.args[0], ast.Constant) and node.args[0].value == 0:
            node = node.func.value  # x.unsqueeze(0): a batch of one, the same positions
        elif isinstance(node, ast.Subscript) and isinstance(node.slice, ast.Constant) and node.slice.value is None:
            node = node.value  # x[None]
        elif isinstance(node, ast.Name) and assigned.get(node.id) is not None:
            node = assigned[node.id]
        else:
            break
    if not isinstance(node, ast.Subscript):
        # the sequence itself, or a copy of it (`labels = input_ids.masked_fill(...)`); a name assigned what
        # this does not read (`roll`, arithmetic) is a sequence of its own
        return (named, FULL) if named is not None else None
    items = list(node.slice.elts) if isinstance(node.slice, ast.Tuple) else [node.slice]
    lead = items[:-1]
    if len(items) > 2 or any(not full_slice(i) and not (isinstance(i, ast.Constant) and i.value is Ellipsis)
                             for i in lead):
        return None
    seq = items[-1]
    if not isinstance(seq, ast.Slice) or seq.step is not None:
        return None
    lower = linear_of(seq.lower) if seq.lower is not None else None
    upper = linear_of(seq.upper) if seq.upper is not None else None
    if (seq.lower is not None and lower is None) or (seq.upper is not None and upper is None):
        return None
    window = cut_window(FULL, lower, upper)
    return (ast.unparse(node.value), window) if window is not None and window != FULL else None


def _single_assignments(fn) -> Dict[str, Optional[ast.expr]]:
    out: Dict[str, Optional[ast.expr]] = {}
    for node in ast.walk(fn):
        if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name):
            name = node.targets[0].id
            out[name] = node.value if name not in out else None
        elif isinstance(node, (ast.AugAssign, ast.AnnAssign, ast.For)):
            for name in ast.walk(node.target):
                if isinstance(name, ast.Name):
                    out[name.id] = None
    return out
