"""GL022: a repetition penalty that divides the picked logits whatever their sign.

Found by syntax, one function (or a script's top level) at a time, in the two ways people write it:

- gather / scatter back: `picked = logits.gather(d, ids)` (or `torch.gather`, `take_along_dim`), then
  `logits.scatter(d, ids, picked / penalty)` (`scatter_`, `torch.scatter`) with the same input, dim and
  index; the divided value may pass through one name (`upd = picked / p`, `picked /= p`);
- in place by subscript: `logits[i, ids] /= penalty`, `logits[ids] = logits[ids] / penalty`;
- the whole tensor: `logits = logits / penalties` (a per-token penalty tensor), `logits /= penalty`,
  `logits = torch.where(seen, logits / penalty, logits)`.

Reported only when the scores can be negative (the widespread `logits` / `scores` naming, not a
softmax/exp/sigmoid output), the divisor is a penalty (its name, or the function's, says so), and
nothing in the scope tests the picked values' sign (a comparison, `sign`, `lt`, `abs`, `clamp`). A length
penalty (beam scores divided by a power of the length) is not a penalty here. A name that says only
`score` is no evidence of logits by itself (`score = score / penalty` may divide two Python numbers): the
division by subscript or of the whole tensor then needs the scope to treat the scores as a tensor (a tensor
method or a torch function on them, or the division inside `torch.where`); a gather and scatter back is one.
"""
from __future__ import annotations

import ast
import re
from typing import Dict, Iterator, Optional, Tuple

from ..rules import gl022_penalty_divides_negative_logits as rule
from .tree_walk import called_name, own_nodes, scopes, subscripted_name
from .text_scan import file_test

_SIGNED = ("logit", "score")  # raw scores: either sign
_NON_NEGATIVE = {"softmax", "exp", "sigmoid", "abs", "relu", "square", "pow", "clamp", "clamp_min", "probs"}
_SIGN_TESTS = {"sign", "signbit", "abs", "clamp", "clamp_min", "clamp_max", "lt", "gt", "le", "ge",
               "maximum", "minimum", "relu"}
_GATHERS = {"gather", "take_along_dim"}
_SCATTERS = {"scatter", "scatter_"}


# a division by a penalty-named value, or a penalty function; searched only in text that names scores
_SPELLED = re.compile(r"/=?\s*\(?\s*[\w.\[\]]*(?:penal|_pen\b)|def \w*(?:penal|repetition)")


@file_test
def spelled_in(text: str) -> bool:
    # substring tests first: most files hold a "/" and a "score", almost none a penalty
    return ("penal" in text or "_pen" in text or "epetition" in text) and "/" in text and \
        ("logit" in text or "score" in text) and _SPELLED.search(text) is not None


def check_module(tree: ast.Module) -> Iterator[Tuple[ast.AST, object]]:
    for scope in scopes(tree):
        yield from _check_scope(scope)


def _check_scope(scope) -> Iterator[Tuple[ast.AST, object]]:
    nodes = own_nodes(scope)
    scope_name = getattr(scope, "name", "")
    gathered: Dict[str, Tuple[str, str, str]] = {}  # name -> (input, dim, index) of the gather it holds
    divided: Dict[str, Tuple[str, ast.AST]] = {}  # name -> (gathered name, divisor)
    non_negative = set()
    picked_from: Dict[str, Optional[str]] = {}  # name -> the scores it was read from by subscript or gather
    for node in nodes:
        if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name):
            name, value = node.targets[0].id, node.value
            if isinstance(value, ast.Subscript):
                picked_from[name] = subscripted_name(value)
            elif _gather_parts(value) is not None:
                picked_from[name] = subscripted_name(_parts(value, _GATHERS)[0])
            picked = _gather_parts(value)
            if picked is not None:
                gathered[name] = picked
            quotient = _division_of(value, gathered)
            if quotient is not None:
                divided[name] = quotient
            if _makes_non_negative(value):
                non_negative.add(name)
        elif isinstance(node, ast.AugAssign) and isinstance(node.op, ast.Div) and isinstance(node.target, ast.Name) \
                and node.target.id in gathered:
            divided[node.target.id] = (node.target.id, node.value)
    tested = _sign_tested(nodes)
    tensors = _used_as_tensors(nodes)
    # `penalty = ((5 + lengths) / 6) ** alpha`: a length penalty by what it is made of (GNMT), whatever its name
    tested = tested | {n.targets[0].id for n in nodes if isinstance(n, ast.Assign) and len(n.targets) == 1
                       and isinstance(n.targets[0], ast.Name) and _made_of_lengths(n.value)}
    seen_through = None
    for node in nodes:
        if isinstance(node, ast.Call):
            found = _scatter_back(node, gathered, divided, tested, non_negative, scope_name)
            if found is not None:
                yield node, found
        elif isinstance(node, (ast.AugAssign, ast.Assign)):
            found = _subscript_division(node, tested, non_negative, scope_name, picked_from, tensors)
            if found is None:
                if seen_through is None:  # once per scope: it reads every assignment of it
                    seen_through = tested | _signs_seen_through(nodes, gathered, tested)
                found = _whole_division(node, seen_through, non_negative, scope_name, tensors)
            if found is not None:
                yield node, found


def _is_torch(node) -> bool:
    return isinstance(node, ast.Name) and node.id == "torch"


def _parts(call: ast.Call, names) -> Optional[Tuple[ast.AST, ast.AST, ast.AST, list]]:
    """(input, dim, index, rest of the positional arguments) of a gather or scatter call."""
    if not isinstance(call, ast.Call) or called_name(call) not in names:
        return None
    keywords = {k.arg: k.value for k in call.keywords if k.arg}
    args = list(call.args)
    if isinstance(call.func, ast.Attribute) and not _is_torch(call.func.value):
        args = [call.func.value] + args
    order = ["input", "index", "dim"] if called_name(call) == "take_along_dim" else ["input", "dim", "index"]
    bound = dict(zip(order, args))
    rest = args[len(order):]
    for key, alias in (("index", "indices"), ("input", "input"), ("dim", "dim"), ("index", "index")):
        if alias in keywords:
            bound[key] = keywords[alias]
    if "src" in keywords:
        rest = [keywords["src"]]
    if len(bound) < 3:
        return None
    return bound["input"], bound["dim"], bound["index"], rest


def _gather_parts(value) -> Optional[Tuple[str, str, str]]:
    parts = _parts(value, _GATHERS)
    if parts is None:
        return None
    inp, dim, index, _ = parts
    return ast.dump(inp), ast.dump(dim), ast.dump(index)


def _division_of(value, gathered) -> Optional[Tuple[str, ast.AST]]:
    """`picked / p` of a gathered name: (that name, p)."""
    if isinstance(value, ast.BinOp) and isinstance(value.op, ast.Div) and isinstance(value.left, ast.Name) \
            and value.left.id in gathered:
        return value.left.id, value.right
    return None


def _makes_non_negative(value) -> bool:
    return isinstance(value, ast.Call) and called_name(value) in _NON_NEGATIVE


def _sign_operands(node):
    """What a comparison (`x > 0`) or a sign test (`x.sign()`, `x.abs()`, `x.gt(0)`: _SIGN_TESTS) looks at;
    None for any other node."""
    if isinstance(node, ast.Compare):
        return [node.left] + node.comparators
    if isinstance(node, ast.Call) and called_name(node) in _SIGN_TESTS:
        return list(node.args) + ([node.func.value] if isinstance(node.func, ast.Attribute) else [])
    return None


def _sign_tested(nodes) -> set:
    """Names and subscript texts whose sign the scope looks at."""
    seen = set()
    for node in nodes:
        operands = _sign_operands(node)
        if operands is None:
            continue
        for operand in operands:
            for inner in ast.walk(operand):
                if isinstance(inner, ast.Name):
                    seen.add(inner.id)
                elif isinstance(inner, ast.Subscript):
                    seen.add(ast.dump(inner.value))
    return seen


def _signs_seen_through(nodes, gathered, tested) -> set:
    """Names whose sign is known by another way: the scores a sign-tested gather read from, and penalty
    tensors built by an expression that tests a sign (`torch.where(picked < 0, 1 / p, p)`)."""
    seen = set()
    for name, (inp, _, _) in gathered.items():
        if name in tested:
            for node in nodes:
                if isinstance(node, ast.Name) and ast.dump(node) == inp:
                    seen.add(node.id)
    for node in nodes:
        if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name) and \
                any(isinstance(inner, ast.Compare) or (isinstance(inner, ast.Call) and called_name(inner) in _SIGN_TESTS)
                    for inner in ast.walk(node.value)):
            seen.add(node.targets[0].id)
    return seen


def _signed_scores(node, non_negative: set) -> Optional[str]:
    """The name of a tensor of raw scores (either sign), by the `logits` / `scores` naming."""
    base = node
    while isinstance(base, ast.Subscript):
        base = base.value
    name = base.attr if isinstance(base, ast.Attribute) else (base.id if isinstance(base, ast.Name) else None)
    if name is None or name in non_negative or "prob" in name.lower():
        return None
    return name if any(word in name.lower() for word in _SIGNED) else None


# methods only a tensor (or an array) has: a name they are called on holds one
_TENSOR_METHODS = {"gather", "scatter", "scatter_", "scatter_add_", "index_select", "masked_fill", "masked_fill_",
                   "softmax", "log_softmax", "topk", "argmax", "argsort", "size", "dim", "view", "reshape", "unsqueeze",
                   "squeeze", "clone", "detach", "float", "contiguous", "index_fill_", "index_put_", "new_full",
                   "new_zeros", "new_ones", "numel"}
_TORCH_MODULES = {"torch", "F", "nn"}


def _used_as_tensors(nodes) -> set:
    """Names the scope treats as tensors: a tensor method called on them, `.shape` read, passed to a
    torch function (`torch.where(seen, scores / p, scores)`, `F.softmax(scores)`), or assigned one's result."""
    found = set()
    for node in nodes:
        if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and \
                (node.attr in _TENSOR_METHODS or node.attr == "shape"):
            found.add(node.value.id)
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and _torch_module(node.func.value):
            for arg in list(node.args) + [k.value for k in node.keywords]:
                for inner in ast.walk(arg):
                    if isinstance(inner, ast.Name):
                        found.add(inner.id)
        elif isinstance(node, ast.Assign) and isinstance(node.value, ast.Call) and isinstance(node.value.func, ast.Attribute) \
                and _torch_module(node.value.func.value):
            found.update(t.id for t in node.targets if isinstance(t, ast.Name))
    return found


def _torch_module(node) -> bool:
    """`torch`, `F`, `nn`, or a submodule of torch (`torch.nn.functional`)."""
    while isinstance(node, ast.Attribute):
        node = node.value
    return isinstance(node, ast.Name) and node.id in _TORCH_MODULES


def _logits_evidence(name: str, tensors: set) -> bool:
    """A name that says logits, or says scores and is used as a tensor in the scope: `score = score / p`
    of two Python numbers (a discount, a rating) is no repetition penalty on logits."""
    return "logit" in name.lower() or name in tensors


_PENALTY_WORD = re.compile(r"penal|(?:^|_)pen(?:_|$)")  # repetition_penalty, rep_pen
_PENALTY_SCOPE = re.compile(r"penal|repetition")  # apply_repetition_penalty, penalize_repeats


def _penalty(divisor, scope_name: str) -> bool:
    """A repetition-style penalty; a length penalty divides summed log-probs by design (beam scores)."""
    text = ast.unparse(divisor).lower()
    if "length" in text or "len" in text.split("_") or not isinstance(divisor, (ast.Name, ast.Attribute, ast.Subscript)):
        return False
    words = re.split(r"[^a-z0-9_]+", text)
    if any(_PENALTY_WORD.search(word) for word in words):
        return True
    scope = scope_name.lower()
    return isinstance(divisor, (ast.Name, ast.Attribute)) and _PENALTY_SCOPE.search(scope) is not None \
        and "length" not in scope


def _made_of_lengths(value) -> bool:
    text = ast.unparse(value).lower()
    return "length" in text or "len(" in text or "lens" in re.split(r"[^a-z0-9]+", text)


def _whole_division(node, tested, non_negative, scope_name, tensors=frozenset()):
    """`logits = logits / penalties`, `logits /= penalty`, `logits = torch.where(seen, logits / p, logits)`."""
    if isinstance(node, ast.AugAssign):
        if not isinstance(node.op, ast.Div) or not isinstance(node.target, ast.Name):
            return None
        target, divisor = node.target, node.value
    else:
        if len(node.targets) != 1 or not isinstance(node.targets[0], ast.Name):
            return None
        target, value = node.targets[0], node.value
        if isinstance(value, ast.Call) and called_name(value) == "where" and len(value.args) == 3 \
                and ast.unparse(value.args[2]) == target.id:
            value = value.args[1]  # the penalised branch; the condition picks tokens, not signs
        if not (isinstance(value, ast.BinOp) and isinstance(value.op, ast.Div)
                and isinstance(value.left, ast.Name) and value.left.id == target.id):
            return None
        divisor = value.right
    if target.id in tested or subscripted_name(divisor) in tested or _signed_scores(target, non_negative) is None \
            or not _penalty(divisor, scope_name) or not _logits_evidence(target.id, tensors):
        return None
    return rule.divides_picked(target.id, target.id, ast.unparse(divisor), in_place=isinstance(node, ast.AugAssign),
                               back=True)


def _scatter_back(call, gathered, divided, tested, non_negative, scope_name):
    parts = _parts(call, _SCATTERS)
    if parts is None or len(parts[3]) != 1:
        return None
    inp, dim, index, (src,) = parts
    quotient = _division_of(src, gathered) if isinstance(src, ast.BinOp) else \
        divided.get(src.id) if isinstance(src, ast.Name) else None
    if quotient is None:
        return None
    picked, divisor = quotient
    if gathered.get(picked) != (ast.dump(inp), ast.dump(dim), ast.dump(index)):
        return None
    if picked in tested or (isinstance(src, ast.Name) and src.id in tested) or subscripted_name(inp) in tested:
        return None  # the sign is looked at: a penalty by sign, or scores known to be positive
    scores = _signed_scores(inp, non_negative)
    if scores is None or not _penalty(divisor, scope_name):
        return None
    return rule.divides_picked(ast.unparse(inp), picked, ast.unparse(divisor))


def _read_from(left, target, picked_from) -> bool:
    """`score = logits[rows, ids]` (or a gather of logits), then `logits[rows, ids] = score / p`."""
    return isinstance(left, ast.Name) and (picked_from or {}).get(left.id) == subscripted_name(target)


def _selects_by_sign(target: ast.Subscript) -> bool:
    """`logits[logits > 0] /= p`: the key itself tests the sign of the scores it indexes, so the division
    reaches only the entries of one sign (vLLM's penalty multiplies the others, `logits[logits <= 0] *= p`)."""
    scores = ast.dump(target.value)
    for inner in ast.walk(target.slice):
        operands = _sign_operands(inner)
        if operands is not None and any(ast.dump(n) == scores for operand in operands for n in ast.walk(operand)):
            return True
    return False


def _subscript_division(node, tested, non_negative, scope_name, picked_from=None, tensors=frozenset()):
    if isinstance(node, ast.AugAssign):
        if not isinstance(node.op, ast.Div) or not isinstance(node.target, ast.Subscript):
            return None
        target, divisor = node.target, node.value
    else:
        if len(node.targets) != 1 or not isinstance(node.targets[0], ast.Subscript):
            return None
        target, value = node.targets[0], node.value
        if not (isinstance(value, ast.BinOp) and isinstance(value.op, ast.Div)
                and (ast.unparse(value.left) == ast.unparse(target) or _read_from(value.left, target, picked_from))):
            return None
        divisor = value.right
    if ast.dump(target.value) in tested or _signed_scores(target, non_negative) is None or \
            (isinstance(node, ast.Assign) and isinstance(node.value.left, ast.Name) and node.value.left.id in tested) \
            or _selects_by_sign(target):
        return None
    if not _penalty(divisor, scope_name) or not _logits_evidence(_signed_scores(target, non_negative), tensors):
        return None
    picked = ast.unparse(target)
    return rule.divides_picked(ast.unparse(target.value), picked, ast.unparse(divisor),
                               in_place=isinstance(node, ast.AugAssign), back=True)
