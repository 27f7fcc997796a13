"""Facts the author wrote down: parameters' annotations, docstrings, shape comments and pragmas."""
from __future__ import annotations

import ast
import re
from typing import Dict, List, Optional

from . import class_docstrings, scalars
from .least_rank import exact_rank, least_rank
from . import comment_dim_names, comment_placement, header_comments, python_annotations, value_comments
from . import tensor_ops as ops
from ..dims import Shape, Sym, value
from .interp_helpers import _merge
from .names import JAXTYPING_DTYPES, TENSOR_TYPES
from .shape_text import arrow_start, transformed, typed_entries, docstring_ints, parse_comment, parse_docstring, parse_group, parse_jaxtyping
from .modules import InstanceVal
from .shape_unpacking import shape_owner
from .values import DimVal, Literal, QualName, SeqVal, TensorVal
from . import tree_walk
from .tree_walk import last_name


def _contradicted(env: dict, declared: dict) -> List[str]:
    """The names just declared whose comment gives one dim name two sizes the code proved (`hidden: [B, T, H]`
    of [3, 8, 7] beside `mask: [B, T]` of [3, 5]): the comment does not describe this run."""
    if not declared:
        return []
    sizes: Dict[str, set] = {}
    for name in declared:
        for d in getattr(getattr(env.get(name), "shape", None), "dims", ()):
            if isinstance(d, Sym) and d.size is not None:
                sizes.setdefault(d.name, set()).add(d.size)
    split = {n for n, found in sizes.items() if len(found) > 1}
    return [name for name in declared if split and any(
        isinstance(d, Sym) and d.name in split for d in getattr(getattr(env.get(name), "shape", None), "dims", ()))]


class DeclaredFactsMixin:
    """Facts the author wrote down: parameters' annotations, docstrings, shape comments and pragmas."""

    # ----- facts from text ----------------------------------------------------------------------
    def _with_comment(self, result, node: ast.stmt):
        comment = self.source.shape_comment(node.lineno, node.end_lineno or node.lineno)
        if comment is None or isinstance(result, (DimVal, SeqVal, QualName, Literal)):
            return result
        if comment.standalone and comment_placement.follows_statement(self.source.lines, comment.line) \
                and comment_placement.below_statements(self.source):
            return result  # in a file that writes them below, the comment is the statement above's
        target = node.targets[0] if isinstance(node, ast.Assign) else node.target
        name = target.id if isinstance(target, ast.Name) else getattr(target, "attr", None)
        shape = parse_comment(comment.text, name, above=comment.standalone) or comment_dim_names.single_dim(comment.text, self.source)
        if shape is None or _fewer_dims_than_the_op_makes(shape, node.value) or _numpy_copy(node.value) \
                or _more_dims_than_it_can_have(shape, result, node.value) \
                or _lowers_what_the_op_cannot(arrow_start(comment.text), shape, node.value) \
                or _keeps_what_squeeze_removes(shape, node.value):
            return result
        if _texts_disagree(result, shape):
            return result.with_(shape=None)  # `ssl = row[0]  # [1, 768, T]` against a docstring's 2-d batch item
        merged = _merge(result, shape, f"comment line {comment.line}")
        # a comment that only names sizes the code already proved adds no informal fact
        self._comment_used = merged is not result and not all_sizes_known(result)
        return merged

    def _comments_before(self, stmt: ast.stmt) -> None:
        """Pragmas and `# name: [dims]` lines between the previous statement and this one."""
        gap = self.comments.gap_before(stmt)
        if gap is None or not self.source.any_comment(*gap):
            return
        self._apply_pragmas(*gap)
        value_comments.declare(self, *gap)  # `# labels: [N] ids in 1..C`
        before = {}
        assigned = _assigned_names(stmt)  # `# x: [T, D]` above `x = x.unsqueeze(1)...` describes the new x
        for line, name, shape, dtype in self.comments.entries(*gap):
            known = name in self.env or name in self.params
            if known and name in assigned and transformed(self.source.lines[line - 1], name):
                # `# logits: (B, L, D) -> (L, B, D)` above `logits = logits.transpose(0, 1)`: the first shape is
                # the value before the statement; written facts of another rank contradict it (trust neither)
                self._declare_against_text(name, shape, line, dtype)
            elif known and name not in assigned:
                before.setdefault(name, self.env.get(name))
                self._declare(name, shape, line, dtype)
            elif arrow_start(self.source.lines[line - 1].split("#", 1)[-1]) is None:
                self.comments.pending[name] = (shape, line, dtype)
            # else `# ids: (B, T) -> (B, T, 1) -> gather -> ...` above the line that makes ids: the chain's first
            # shape is what the value is made from, not the value (its last describes later lines, too)
        for name in _contradicted(self.env, before):
            self.env[name] = before[name]  # the code gives one name two sizes: trust the code, as _merge does

    def _def_line_comments(self, node) -> None:
        """`def forward(self, obs, act):  # obs: (B, D)  act: (B,)`."""
        if not node.body:
            return
        for line, name, shape, dtype in self.comments.trailing_entries(node.lineno, node.body[0].lineno - 1):
            if name not in self.params:
                continue
            if not _older_than_the_code(node, name, shape):
                self._declare(name, shape, line, dtype)

    def _declare(self, name: str, shape, line: int, dtype=None) -> None:
        old = self.env.get(name)
        if old is None or isinstance(old, TensorVal):
            # a dtype the code made wins over the comment's (a float index commented `long` is the bug itself)
            known = old.dtype if isinstance(old, TensorVal) else None
            self.env[name] = _merge(old, shape, f"comment line {line}", known or dtype)
            if not all_sizes_known(old):  # a comment that only names sizes the code proved adds no informal fact
                self.informal.add(name)

    def _declare_against_text(self, name: str, shape, line: int, dtype=None) -> None:
        """A comment on a name whose shape an annotation, a docstring or another comment gave: of another rank,
        the author's texts disagree and neither is a fact; else the comment names its dims."""
        old = self.env.get(name)
        given = old.shape if isinstance(old, TensorVal) else None
        if given is not None and not given.variadic and not shape.variadic and len(given.dims) != len(shape.dims) \
                and old.origin.startswith(("annotation", "docstring", "comment")):
            self.env[name] = old.with_(shape=None)
            return
        self._declare(name, shape, line, dtype)

    def _pending_comment(self, name: str, result):
        """The first binding of a name that a comment line above described."""
        declared = self.comments.pending.pop(name, None)
        if declared is None or not (result is None or isinstance(result, TensorVal)):
            return result
        known = result.dtype if isinstance(result, TensorVal) else None
        merged = _merge(result, declared[0], f"comment line {declared[1]}", known or declared[2])
        # as for a trailing comment: one that only names sizes the code already proved adds no informal fact
        self._comment_used = self._comment_used or (merged is not result and not all_sizes_known(result))
        return merged

    def _pragmas_on(self, stmt: ast.stmt) -> None:
        if self.source.may_hold_pragmas and not isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.If, ast.For, ast.While, ast.With, ast.Try)):
            self._apply_pragmas(stmt.lineno, stmt.end_lineno or stmt.lineno)

    def _apply_pragmas(self, first: int, last: int) -> None:
        if not self.source.may_hold_pragmas:
            return
        for name, text in self.source.pragmas(first, last):
            shape = parse_group(text, strict=False)
            if shape is not None:
                old = self.env.get(name)
                base = old if isinstance(old, TensorVal) else TensorVal()
                self.env[name] = base.with_(shape=shape, origin="pragma")

    def _bind_parameters(self, node) -> None:
        args = node.args
        params = list(args.posonlyargs) + list(args.args) + list(args.kwonlyargs)
        self.params = {p.arg for p in params}
        if args.vararg:
            self.env[args.vararg.arg] = None
        if args.kwarg:
            self.env[args.kwarg.arg] = None
        documented, sizes, items = _docstring_facts(node, params)
        documented = _not_contradicted(self.source, node, dict(documented))
        for name, fact in class_docstrings.call_inputs(self.module, node).items():
            documented.setdefault(name, fact)  # the method's own docstring says more
        single_line = _single_param_lines(params)
        for param in params:
            fact = self.annotation(param.annotation) if param.annotation is not None else None
            if not isinstance(fact, TensorVal):
                fact = None
            if param.arg in single_line:
                comment = self.source.comment(param.lineno)
                shape = parse_comment(comment.text, param.arg) if comment and not comment.standalone else None
                if shape is not None and not _older_than_the_code(node, param.arg, shape):
                    fact = _merge(fact, shape, f"comment line {param.lineno}")
                    self.informal.add(param.arg)
            if fact is None and param.arg in documented:
                shape, dtype = documented[param.arg]
                fact = TensorVal(shape, dtype, origin="docstring")
            elif isinstance(fact, TensorVal) and fact.shape is None and param.arg in documented:
                fact = fact.with_(shape=documented[param.arg][0], origin="docstring")
            if fact is None and param.arg in items:  # a list or tuple of tensors of the documented shape
                shape, dtype = items[param.arg]
                fact = ops.Repeated(TensorVal(shape, dtype, origin="docstring"))
            if fact is None and (_is_int_param(param) or param.arg in sizes):
                fact = DimVal(Sym(param.arg, expr=param.arg))
            if fact is None:
                fact = python_annotations.sequence_of(param.annotation)  # `ids: list[int]`
            if fact is None and param.annotation is not None and getattr(self, "module", None) is not None:
                fact = annotated_module(self.module.classes, param.annotation)  # `critic: Critic`
            self.env[param.arg] = fact
            if self.trace is not None and isinstance(fact, TensorVal):
                self.trace.append((param.lineno, param.arg, fact))
        header_comments.bind(self, node, params)  # `# x: [B, D], y: [B]` atop the body
        scalars.bind_float_params(self.env, node)

    def annotation(self, node) -> Optional[object]:
        """jaxtyping `Float[Tensor, "b l v"]`, torchtyping `TensorType["b", "l"]`, plain `torch.Tensor`."""
        node = python_annotations.unquoted(node)
        if node is None:
            return None
        if isinstance(node, ast.Subscript):
            head = last_name(node.value)
            items = node.slice.elts if isinstance(node.slice, ast.Tuple) else [node.slice]
            if head in ("Optional", "Annotated") and items:
                return self.annotation(items[0])
            if head in JAXTYPING_DTYPES and len(items) == 2:
                spec = items[1]
                if isinstance(spec, ast.Constant) and isinstance(spec.value, str):
                    return TensorVal(parse_jaxtyping(spec.value), JAXTYPING_DTYPES[head], origin="annotation")
                return None
            if head == "TensorType":
                return TensorVal(_torchtyping(items), _torchtyping_dtype(items), origin="annotation")
            return None
        head = last_name(node)
        if head in TENSOR_TYPES:
            return TensorVal(None, TENSOR_TYPES[head], origin="annotation")
        return None


def annotated_module(classes: Dict[str, ast.ClassDef], annotation) -> Optional[InstanceVal]:
    """`critic: Critic` with Critic an nn.Module class of this file: an instance built from arguments this
    function does not see, so its forward runs on what __init__ builds without them (literal widths such as
    `nn.Linear(hidden, 1)` included, sizes from the constructor's arguments unknown)."""
    node = python_annotations.unquoted(annotation)
    name = node.id if isinstance(node, ast.Name) else None
    return InstanceVal(name, ()) if name in classes and _is_module_class(classes, name, set()) else None


def _is_module_class(classes: Dict[str, ast.ClassDef], name: str, seen: set) -> bool:
    """The class derives from nn.Module, directly or through classes of the file."""
    if name in seen or name not in classes:
        return False
    seen.add(name)
    for base in classes[name].bases:
        base_name = base.attr if isinstance(base, ast.Attribute) else getattr(base, "id", None)
        if base_name == "Module" or _is_module_class(classes, base_name, seen):
            return True
    return False


def _assigned_names(stmt) -> frozenset:
    """The plain names an assignment statement binds (its value is what a comment above it describes)."""
    if isinstance(stmt, ast.Assign):
        return frozenset(t.id for t in stmt.targets if isinstance(t, ast.Name))
    if isinstance(stmt, (ast.AnnAssign, ast.AugAssign)) and isinstance(stmt.target, ast.Name):
        return frozenset((stmt.target.id,))
    return frozenset()


def _single_param_lines(params) -> set:
    lines: Dict[int, List[str]] = {}
    for p in params:
        lines.setdefault(p.lineno, []).append(p.arg)
    return {names[0] for names in lines.values() if len(names) == 1}


def _is_int_param(param) -> bool:
    return isinstance(param.annotation, ast.Name) and param.annotation.id == "int"


def _torchtyping(items) -> Optional[Shape]:
    tokens = []
    for item in items:
        if isinstance(item, ast.Constant) and isinstance(item.value, str):
            tokens.append(item.value.split(":")[0].strip() or "_")
        elif isinstance(item, ast.Constant) and isinstance(item.value, int):
            tokens.append(str(item.value))
        elif isinstance(item, ast.Constant) and item.value is Ellipsis:
            tokens.append("...")
        elif isinstance(item, ast.Slice) and isinstance(item.upper, ast.Constant) and item.upper.value is Ellipsis:
            tokens.append("...")  # `"batch":...`: any number of dims, named together
        elif isinstance(item, ast.Slice) and isinstance(item.lower, ast.Constant):
            tokens.append(str(item.lower.value))
        elif last_name(item) in ops.DTYPE_NAMES or last_name(item) in ("float", "int", "bool"):
            continue
        else:
            return None
    if not tokens:
        return None
    return parse_jaxtyping(" ".join(tokens))


def _torchtyping_dtype(items) -> Optional[str]:
    for item in items:
        name = last_name(item)
        if isinstance(item, ast.Attribute) and name in ops.DTYPE_NAMES:
            return ops.DTYPE_NAMES[name]
    return None


def _numpy_copy(value_node) -> bool:
    """`torch.cat(...).cpu().numpy()  # [label, detect, iou]`: the value is a NumPy array, which a comment does not
    make a tensor (of a known dtype, .numpy() gives an array and the comment is not read either); such comments
    name the array's columns as often as its dims."""
    return isinstance(value_node, ast.Call) and isinstance(value_node.func, ast.Attribute) \
        and value_node.func.attr == "numpy" and not value_node.args and not value_node.keywords


def _fewer_dims_than_the_op_makes(shape: Shape, value_node) -> bool:
    """A comment giving `torch.stack(xs, 2)` two dims describes its inputs, not its result; one giving
    `x.repeat(1, d)` three describes another step (`# [bs] --> [bs, 1, d]` above the repeat and an unsqueeze)."""
    if shape.variadic or value_node is None:
        return False
    exact = exact_rank(value_node)
    return len(shape.dims) < least_rank(value_node) or (exact is not None and len(shape.dims) != exact)


# ops whose result has at least the dims of their input: stacking, views that add dims, copies, casts, maths
_NEVER_FEWER_DIMS = frozenset({
    "stack", "cat", "concat", "concatenate", "unsqueeze", "expand", "expand_as", "repeat", "tile", "clone",
    "contiguous", "detach", "float", "long", "int", "half", "double", "bfloat16", "to", "type", "transpose",
    "permute", "softmax", "log_softmax", "exp", "log", "abs", "sigmoid", "tanh", "relu"})


def _lowers_what_the_op_cannot(start: Optional[Shape], shape: Shape, value_node) -> bool:
    """`# (n_states, B) -> (B,)` above `stacked = torch.stack(offsets)`: a stack never has fewer dims than what
    it stacks, so the chain describes the lines that follow too, and its last shape is not this result."""
    if start is None or start.variadic or shape.variadic or len(shape.dims) >= len(start.dims):
        return False
    func = value_node.func if isinstance(value_node, ast.Call) else None
    name = func.attr if isinstance(func, ast.Attribute) else func.id if isinstance(func, ast.Name) else None
    return name in _NEVER_FEWER_DIMS


def _texts_disagree(result, shape: Shape) -> bool:
    """The value's shape is only names read from text (a docstring's or another comment's dims: no size, no
    expression that computes it), and the comment on its line gives it another rank: the author's texts disagree,
    and neither is a fact. A shape the code computed, from sizes it knows, wins over a comment instead (_merge)."""
    inferred = result.shape if isinstance(result, TensorVal) else None
    if inferred is None or inferred.variadic or shape.variadic or len(inferred.dims) == len(shape.dims) \
            or not inferred.dims:
        return False
    return all(isinstance(d, Sym) and d.expr is None and d.size is None for d in inferred.dims)


def _keeps_what_squeeze_removes(shape: Shape, value_node) -> bool:
    """`y = y.squeeze(-1)  # batch_size x 1`: a squeeze removes a size-1 dim where the comment still has one, so
    the comment describes the tensor before the squeeze."""
    if not (isinstance(value_node, ast.Call) and isinstance(value_node.func, ast.Attribute)
            and value_node.func.attr in ("squeeze", "squeeze_")) or shape.variadic:
        return False
    dims = shape.dims
    if not value_node.args and not value_node.keywords:
        return 1 in dims
    arg = value_node.args[0] if value_node.args else next((k.value for k in value_node.keywords if k.arg == "dim"), None)
    axis = tree_walk.int_literal(arg)
    return axis is not None and -len(dims) <= axis < len(dims) and dims[axis] == 1


def _more_dims_than_it_can_have(shape: Shape, result, value_node) -> bool:
    """A comment giving `table[faces].mean(dim=-2)` three dims, where the lookup has at most three and the
    mean takes one away: it describes the mean's input."""
    most = result.most_rank if isinstance(result, TensorVal) and result.shape is None else None
    if most is None or shape.variadic:
        return False
    taken = 1 if _drops_a_dim(value_node) else 0
    return len(shape.dims) > most - taken


def _drops_a_dim(node) -> bool:
    """`x.mean(dim=-2)`, `x.sum(1)`: a reduction along one given dim without keepdim."""
    if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)) or node.func.attr not in _ONE_DIM_REDUCTIONS:
        return False
    keep = next((k.value for k in node.keywords if k.arg == "keepdim"), None)
    if keep is not None and not (isinstance(keep, ast.Constant) and keep.value is False):
        return False
    dim = next((k.value for k in node.keywords if k.arg == "dim"), node.args[0] if node.args else None)
    return isinstance(dim, (ast.Constant, ast.UnaryOp)) and not isinstance(dim, ast.Tuple)


_ONE_DIM_REDUCTIONS = frozenset({"sum", "mean", "amax", "amin", "prod", "std", "var", "logsumexp", "nansum",
                                 "nanmean", "median", "argmax", "argmin", "all", "any"})


def all_sizes_known(result) -> bool:
    shape = result.shape if isinstance(result, TensorVal) else None
    return shape is not None and not shape.variadic and all(value(d) is not None for d in shape.dims)


def _docstring_facts(node, params) -> tuple:
    """({param: (shape, dtype)}, {int params}) that the function's own docstring states: read once per
    function and kept on its node, as a function runs again under each caller's facts (callers must not
    change what it returns)."""
    found = getattr(node, "_gather_lint_doc_facts", None)
    if found is None:
        doc = ast.get_docstring(node, clean=False) or ""
        names = [p.arg for p in params]
        items: dict = {}  # `past: tuple of tensors, each of shape (...)`: the shape of each item
        shapes = _without_unpacked_otherwise(node, _without_listed_items(node, parse_docstring(doc, names, items))) \
            if doc else {}
        shapes = {name: fact for name, fact in shapes.items() if not _annotated_as_other_class(params, name)}
        found = node._gather_lint_doc_facts = (shapes, docstring_ints(doc, names) if doc else frozenset(), items)
    return found


# annotation names that may hold a tensor's values (a docstring's shape is theirs)
_TENSOR_LIKE = re.compile(r"(?:\w*Tensor\w*|ndarray|Array\w*|Any|object|Parameter|Variable)")


def _annotated_as_other_class(params, name: str) -> bool:
    """`segmentations: SlidingWindowFeature` beside a docstring's `(chunks, frames, speakers)-shaped
    SlidingWindowFeature`: an object of another class, which iterates (and indexes) as its class says, not as
    a tensor of that shape."""
    for param in params:
        if param.arg == name and isinstance(param.annotation, (ast.Name, ast.Attribute)):
            spelled = param.annotation.id if isinstance(param.annotation, ast.Name) else param.annotation.attr
            return spelled[:1].isupper() and not _TENSOR_LIKE.fullmatch(spelled)
    return False


def _not_contradicted(source, node, documented: dict) -> dict:
    """The docstring's shapes but those the function's own comments give another rank (`logits: (B, D)` in
    the docstring, `# logits: (B, L, D) -> (L, B, D)` in the body): the author's texts disagree, and neither
    is a fact. Read once per function, as the docstring is."""
    if not documented or not source.any_comment(node.lineno, node.end_lineno or node.lineno):
        return documented
    found = getattr(node, "_gather_lint_doc_contradicted", None)
    if found is None:
        found = set()
        for comment in source.comments(node.lineno, node.end_lineno or node.lineno):
            for name, shape, _ in typed_entries(comment.text):
                written = documented.get(name)
                if written is not None and written[0] is not None and not written[0].variadic \
                        and not shape.variadic and len(written[0].dims) != len(shape.dims):
                    found.add(name)
        node._gather_lint_doc_contradicted = found
    return {name: fact for name, fact in documented.items() if name not in found}


def _without_unpacked_otherwise(node, documented: dict) -> dict:
    """`x: [N, L, 3]` in the docstring beside `B, _, N, K = x.shape` in the body: the code runs only when x has
    four dims, so the docstring describes another version of the function, and none of its shapes is a fact."""
    if not documented:
        return documented
    for name, rank in unpacked_ranks(node).items():
        fact = documented.get(name)
        if fact is not None and fact[0] is not None and not fact[0].variadic and rank != len(fact[0].dims):
            return {}
    return documented


def _older_than_the_code(function, name: str, shape: Shape) -> bool:
    """`tracks,  # T x 2` on a parameter beside `T, N, _ = tracks.shape` in the body: the code runs only on 3-d
    tracks, so the comment describes an older version of the function, not the values it is handed."""
    rank = unpacked_ranks(function).get(name)
    return rank is not None and not shape.variadic and rank != len(shape.dims)


def unpacked_ranks(node) -> Dict[str, int]:
    """{name: its rank} for each `B, N, _ = name.shape` in the function (no starred target): the code runs only
    when `name` has that many dims. Read once per function."""
    found = getattr(node, "_gather_lint_unpacked_ranks", None)
    if found is None:
        found = {}
        for stmt in tree_walk.all_nodes(node):
            if isinstance(stmt, ast.Assign) and len(stmt.targets) == 1 and isinstance(stmt.targets[0], (ast.Tuple, ast.List)) \
                    and not any(isinstance(t, ast.Starred) for t in stmt.targets[0].elts):
                measured = shape_owner(stmt.value)
                if measured is not None:
                    found.setdefault(measured, len(stmt.targets[0].elts))
        node._gather_lint_unpacked_ranks = found
    return found


def _without_listed_items(node, documented: dict) -> dict:
    """`batch: (ids, feats) from collate` beside `ids, _ = batch`: the parentheses list the items the code
    unpacks the parameter into, not the dims of one tensor."""
    if not documented:
        return documented
    unpacked: Dict[str, set] = {}
    for stmt in tree_walk.all_nodes(node):
        if isinstance(stmt, ast.Assign) and isinstance(stmt.value, ast.Name) and stmt.value.id in documented \
                and len(stmt.targets) == 1 and isinstance(stmt.targets[0], (ast.Tuple, ast.List)):
            unpacked.setdefault(stmt.value.id, set()).update(
                e.id for e in stmt.targets[0].elts if isinstance(e, ast.Name))
    listed = {name for name, (shape, _) in documented.items() if name in unpacked and shape is not None
              and not shape.variadic and any(isinstance(d, Sym) and d.name in unpacked[name] for d in shape.dims)}
    return {name: fact for name, fact in documented.items() if name not in listed}


def documented_shapes(node) -> set:
    """The parameters whose shape the function's docstring states."""
    args = node.args
    params = list(args.posonlyargs) + list(args.args) + list(args.kwonlyargs)
    return {name for name, (shape, _) in _docstring_facts(node, params)[0].items() if shape is not None}
