"""GL018: a gather of class labels from a softmax / log_softmax taken over another dim.

The softmax is found by syntax: the gather's input is the call itself, or a name the function
assigns once, from such a call. Its dim must be a literal (or absent: torch's implicit choice).
"""
from __future__ import annotations

import ast
from typing import Optional, Tuple

from ..dims import Sym, normalize_dim
from ..ops import GATHER, TAKE_ALONG
from ..rules import gl004_index_from_wrong_dim as wrong_dim
from ..rules import gl018_normalised_other_dim as rule
from .names import category_domain, is_batch
from . import tree_walk
from .tree_walk import called_name, root_name

_NORMALISERS = {"softmax", "log_softmax"}


def check(interp, call: ast.Call, site, bound) -> bool:
    """False when no softmax was found by syntax (normalised_consumers.check_gather looks at the
    input's mark then). The gathered dim is the distribution's when the index holds class labels, or
    when the softmax ran over the batch (a dim named `B`, `bsz`, ...) and the gather reads another: no
    gather from a distribution over the batch's samples picks a sample's own share."""
    labels = picks_labels(site, bound)
    if not labels and not gathers_known_dim(site):
        return True
    rank = len(site.input.shape.dims)
    found = _normaliser(bound["input"], interp.function, call.lineno)
    if found is None:
        return False
    if rank < 2:
        return True
    function, dim_node = found
    implicit = dim_node is None
    written = (0 if rank in (0, 1, 3) else 1) if implicit else literal_int(dim_node)
    normalised, gathered = normalize_dim(written, rank) if written is not None else None, normalize_dim(site.dim, rank)
    if normalised is None or gathered is None or normalised == gathered:
        return True
    dims = site.input.shape.dims
    if isinstance(dims[normalised], Sym) and dims[normalised] == dims[gathered]:
        return True  # a [B, B] similarity table: a contrastive loss normalises either way on purpose
    if not labels and not (is_batch(dims[normalised]) and not is_batch(dims[gathered])):
        return True
    segment = interp.source.segment
    interp.flag(call, rule.check_normalised(segment(bound["input"]), function, normalised, gathered,
                                            segment(bound[site.op.index_param]), implicit), None)
    return True


def gathers_known_dim(site) -> bool:
    """A gather along a known dim of a known shape, and no GL004 (which already says the dim is wrong)."""
    return site.op.family in (GATHER, TAKE_ALONG) and site.dim is not None and site.input.shape is not None \
        and not site.input.shape.variadic and wrong_dim.check(site) is None


def picks_labels(site, bound) -> bool:
    """A gather along a known dim of a known shape, with class labels as its index (only they say that
    the gathered dim is the class dim), and no GL004 (which already says the dim is wrong)."""
    if not gathers_known_dim(site):
        return False
    domain = site.index.domain
    return domain is not None and domain.category or _named_labels(bound[site.op.index_param]) \
        or _choices_along(site)


def _choices_along(site) -> bool:
    """The index holds positions an argmax / argmin / topk / sort chose along a dim of the gathered dim's own
    (named) size: pseudo-labels (`teacher.argmax(dim=1)`), the code's own choice of the category per entry."""
    domain = site.index.domain
    if domain is None or domain.size is None or domain.sentinel is not None or domain.made_float is not None \
            or not domain.origin.startswith(_CHOSEN):
        return False
    gathered = normalize_dim(site.dim, len(site.input.shape.dims))
    size = site.input.shape.dims[gathered] if gathered is not None else None
    return isinstance(size, Sym) and size == domain.size


_CHOSEN = tuple(f"positions from {op}() over dim" for op in ("argmax", "argmin", "max", "min", "topk", "sort", "argsort"))


def _named_labels(node) -> bool:
    """The index is a tensor named as labels (`actions.long().view(-1, 1)`), whatever its values' range
    says (`randint(0, A)` gives the range, not the kind)."""
    name = root_name(node)
    found = category_domain(name) if name is not None else None
    return found is not None and found.category


def assigned_value(node, function, line: int):
    """The expression itself, or for a name the value of its one assignment in the function (before
    `line`); None for names bound more than once, by a loop or `with`, or as a parameter."""
    if not isinstance(node, ast.Name):
        return node
    if function is None:
        return None
    stores = _bindings(function).get(node.id, ())
    if len(stores) != 1 or not isinstance(stores[0], ast.Assign) or len(stores[0].targets) != 1 \
            or not isinstance(stores[0].targets[0], ast.Name) or stores[0].lineno >= line:
        return None
    return stores[0].value


def arange_steps(node, function, line: int, methods) -> Optional[list]:
    """The steps from `torch.arange(...)` to node (subscripts, and calls of `methods` on the result, last
    step first), following a name to its one assignment; None when node is not made that way."""
    node = assigned_value(node, function, line)
    steps = []
    while node is not None:
        if isinstance(node, ast.Subscript):
            steps.append(node)
            node = node.value
            continue
        if not isinstance(node, ast.Call):
            return None
        name = called_name(node)
        if name == "arange":
            return steps
        if not isinstance(node.func, ast.Attribute) or name not in methods:
            return None
        steps.append(name)
        node = node.func.value
    return None


def _bindings(function) -> dict:
    """name -> the statements and loops that bind it in the function, parameters included; one walk
    per function, kept on its node (a helper is re-run for every caller's facts)."""
    found = getattr(function, "_gather_lint_bindings", None)
    if found is None:
        found = {}
        for n in tree_walk.all_nodes(function):
            if isinstance(n, (ast.Assign, ast.AnnAssign, ast.AugAssign, ast.NamedExpr)):
                # only stores: `x[rows] = v` reads rows, it does not bind it
                names = [t.id for t in _targets(n) if isinstance(t, ast.Name) and isinstance(t.ctx, ast.Store)]
            elif isinstance(n, (ast.For, ast.AsyncFor, ast.comprehension, ast.With, ast.AsyncWith)):
                names = [t.id for t in ast.walk(_bound_by(n)) if isinstance(t, ast.Name)]
            elif isinstance(n, ast.arg):
                names = [n.arg]
            else:
                continue
            for name in set(names):
                found.setdefault(name, []).append(n)
        function._gather_lint_bindings = found
    return found


def _bound_by(node):
    if isinstance(node, (ast.With, ast.AsyncWith)):
        return ast.Tuple([i.optional_vars for i in node.items if i.optional_vars is not None], ast.Load())
    return node.target


def _normaliser(node, function, line: int) -> Optional[Tuple[str, Optional[ast.AST]]]:
    """(softmax or log_softmax, its dim node or None) when node is, or was assigned once from, such a call."""
    node = assigned_value(node, function, line)
    if not isinstance(node, ast.Call) or not isinstance(node.func, (ast.Attribute, ast.Name)):
        return None
    name = node.func.attr if isinstance(node.func, ast.Attribute) else node.func.id
    if name not in _NORMALISERS or any(k.arg is None for k in node.keywords) or any(isinstance(a, ast.Starred) for a in node.args):
        return None
    method = isinstance(node.func, ast.Attribute) and not _is_module(node.func.value)
    positional = node.args if method else node.args[1:]
    keyword = next((k.value for k in node.keywords if k.arg == "dim"), None)
    if not method and not node.args:
        return None
    given = keyword if keyword is not None else (positional[0] if positional else None)
    if given is None and (method or not _functional(node.func.value)):
        return None  # x.softmax() and torch.softmax(x) have no implicit dim: torch raises there
    return name, given


def _is_module(node) -> bool:
    """`F.softmax(x, ...)`, `torch.softmax`, `nn.functional.softmax`: the tensor is the first argument."""
    return isinstance(node, ast.Name) and node.id in ("F", "torch", "functional") or \
        isinstance(node, ast.Attribute) and node.attr in ("functional", "special")


def _functional(node) -> bool:
    return isinstance(node, ast.Name) and node.id in ("F", "functional") or \
        isinstance(node, ast.Attribute) and node.attr == "functional"


def _targets(node):
    if isinstance(node, ast.Assign):
        for t in node.targets:
            yield from ast.walk(t)
    elif isinstance(node, (ast.AnnAssign, ast.AugAssign, ast.NamedExpr)):
        yield node.target


def literal_int(node) -> Optional[int]:
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub) and isinstance(node.operand, ast.Constant):
        return -node.operand.value if isinstance(node.operand.value, int) else None
    if isinstance(node, ast.Constant) and isinstance(node.value, int) and not isinstance(node.value, bool):
        return node.value
    return None
