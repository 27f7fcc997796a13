"""GL008 on an index whose float dtype only an annotation gives: the annotation contradicts the use.

`def f(vertices, faces: Float[Tensor, "num_faces 3"]): vertices[faces[:, 0]]` is float only on paper: a
tensor the function indexes with is `long` when the code runs (else it would raise at its first call), so
the annotation is what is wrong. When the index reaches such a parameter through selections and views
alone (subscripts, `view`, `squeeze`, ..., and names assigned once from them), and nothing made it float
(no true division, no `.float()`: those leave `made_float` or stop the walk), the torch error becomes a
warning that names the annotation and the use, once per parameter and function.
"""
from __future__ import annotations

import ast
from typing import List, Optional, Tuple

from ..contract import Site, Violation
from ..rules import gl008_index_dtype as index_dtype
from .last_assignment import last_assigned
from .tensor_ops import FLOAT_DTYPES
from .tree_walk import called_name

# methods that select or move values without changing their dtype (a cast such as `.float()` or `.to()` is
# the code making the dtype: the walk stops there and the error stands)
_SAME_DTYPE = {"view", "reshape", "contiguous", "transpose", "permute", "squeeze", "unsqueeze", "flatten", "clone",
               "detach", "narrow", "expand", "expand_as", "cpu", "cuda", "t", "select"}
_MAX_STEPS = 6
_INTEGER_HEAD = "Int"  # jaxtyping's any-integer dtype


def restated(interp, site: Site, bound, violations: List[Violation]) -> List[Violation]:
    """The site's GL008 float/bool-index error, as an annotation contradiction where only an annotation made
    the dtype (see the module docstring); other violations unchanged."""
    dtype = site.index.dtype
    if bound is None or dtype is None or not (dtype in FLOAT_DTYPES or dtype == "bool") \
            or not any(v.code == index_dtype.CODE for v in violations):
        return violations
    domain = site.index.domain
    if domain is not None and domain.made_float:
        return violations
    node = bound.get(site.op.index_param)
    use = f"{site.op.spelled}() takes `{interp.source.segment(node)}` as its index"
    contradiction = contradicted(interp, node, use, dtype)
    if contradiction is False:
        return violations
    if contradiction is None:  # this parameter's contradiction is reported at its first use
        return [v for v in violations if v.code != index_dtype.CODE]
    return [contradiction if v.code == index_dtype.CODE else v for v in violations]


def contradicted(interp, key: ast.AST, use: str, dtype: str):
    """The warning for `key`, used as an index as `use` says, when its dtype is only its annotation's; None when
    that parameter's contradiction was already reported in this run of the function; False when the dtype is
    not only an annotation's."""
    found = _annotated_parameter(interp, key, dtype)
    if found is None:
        return False
    param, annotation = found
    # the first use met reports (a loop's trial run, whose findings are dropped, meets the same use first)
    here = (key.lineno, key.col_offset)
    if interp.__dict__.setdefault("_contradicted_annotations", {}).setdefault(param.arg, here) != here:
        return None
    written = interp.source.segment(annotation) or ast.unparse(annotation)  # as the author wrote it
    return index_dtype.annotation_contradicts_use(use, param.arg, written, dtype, _corrected(written))


def _annotated_parameter(interp, node, dtype: str) -> Optional[Tuple[ast.arg, ast.AST]]:
    """The parameter (and its annotation) the index is a selection of, when that annotation gives `dtype`."""
    function = getattr(interp, "function", None)
    if function is None or node is None:
        return None
    line = node.lineno
    for _ in range(_MAX_STEPS):
        while True:
            if isinstance(node, ast.Subscript) and not _keyed_by_text(node):
                node = node.value
            elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) \
                    and called_name(node) in _SAME_DTYPE:
                node = node.func.value
            else:
                break
        if not isinstance(node, ast.Name):
            return None
        assigned = last_assigned(interp, node.id, line)
        if assigned is None:
            return _parameter(interp, function, node.id, dtype)
        node = assigned
    return None


def _keyed_by_text(node) -> bool:
    """`batch["faces"]`: an entry of a dict, whose dtype no parameter's annotation gives."""
    return isinstance(node.slice, ast.Constant) and isinstance(node.slice.value, str)


def _parameter(interp, function, name: str, dtype: str):
    args = function.args
    for param in list(args.posonlyargs) + list(args.args) + list(args.kwonlyargs):
        if param.arg == name and param.annotation is not None:
            if _rebound(function, name):
                return None
            declared = interp.annotation(param.annotation)
            return (param, param.annotation) if getattr(declared, "dtype", None) == dtype else None
    return None


def _rebound(function, name: str) -> bool:
    """The parameter is bound again in the function (a loop, an augmented assignment, a `with`)."""
    for node in ast.walk(function):
        if isinstance(node, ast.Name) and node.id == name and isinstance(node.ctx, ast.Store):
            return True
    return False


def _corrected(text: str) -> str:
    """The annotation's text with an integer dtype: jaxtyping's `Int[...]`, torchtyping's `torch.long`."""
    quoted = text[:1] in ("'", '"') and text[-1:] == text[:1]
    if quoted:  # a string annotation: `"Float[Tensor, 'n 3']"`
        return text[0] + _corrected(text[1:-1]) + text[-1]
    try:
        parsed = ast.parse(text, mode="eval").body
    except SyntaxError:
        return "an integer dtype"
    if isinstance(parsed, ast.Subscript):
        head = parsed.value
        if isinstance(head, ast.Name) and head.id != "TensorType":
            return _INTEGER_HEAD + text[len(head.id):]
        if isinstance(head, ast.Attribute) and head.attr != "TensorType":
            return ast.unparse(head.value) + "." + _INTEGER_HEAD + text[len(ast.unparse(head)):]
        items = parsed.slice.elts if isinstance(parsed.slice, ast.Tuple) else [parsed.slice]
        kept = [ast.get_source_segment(text, item) for item in items if not (
            isinstance(item, ast.Attribute) and item.attr.startswith(("float", "half", "double", "bfloat", "bool")))]
        return f"{ast.get_source_segment(text, head)}[{', '.join(kept + ['torch.long'])}]"
    return "an integer dtype"
