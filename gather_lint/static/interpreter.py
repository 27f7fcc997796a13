"""A per-function abstract interpreter: walks statements in order, tracks tensor facts, checks sites.

Facts come from (most trusted first) pragmas, jaxtyping/torchtyping annotations, shape comments,
docstrings, constructors and `.shape` bindings, then flow through shape ops. Branches keep what
both sides agree on; loops forget what their body reassigns. Unknown stays unknown.
"""
from __future__ import annotations

import ast
from dataclasses import replace
from typing import Callable, Dict, List, Optional

from ..contract import Domain, check
from ..dims import Shape, Sym, dim_text, must_equal, normalize_dim, value
from ..rules import gl006_missing_squeeze as missing_squeeze
from ..rules import gl011_index_out_of_range as oob
from ..rules import gl013_overwriting_accumulate as overwrite
from ..suggest import method_call
from . import assert_facts, branches, broadcast_sites, sequences, symbolic
from .comment_facts import CommentLines
from . import advanced_indexing, header_comments
from . import tensor_ops as ops
from .names import JAXTYPING_DTYPES, TENSOR_TYPES, category_domain
from .shape_text import docstring_ints, parse_comment, parse_docstring, parse_group, parse_jaxtyping
from . import config, modules, value_ranges
from .calls import fill_gaps, value_facts
from .modules import InstanceVal
from .sites import bind_call, build_site, resolve_op, result_of
from .source import SourceFile
from .values import DimVal, LayerVal, Literal, QualName, SeqVal, TensorVal, join

_CONSTRUCTORS = {"randn", "rand", "zeros", "ones", "empty", "full", "randint", "arange", "tensor", "randperm",
                 "as_tensor", "LongTensor", "FloatTensor"}
_LIKE = {"zeros_like", "ones_like", "empty_like", "rand_like", "randn_like", "full_like", "randint_like"}
_TORCH_ON_INPUT = set(ops.SHAPE_METHODS) | ops._ELEMENTWISE | ops._REDUCE | {
    "argmax", "argmin", "topk", "sort", "argsort", "max", "min", "matmul", "clamp", "clip", "multinomial",
    "nonzero", "argwhere", "bucketize", "cumsum", "cumprod", "squeeze", "unsqueeze", "long", "float"}
_SHAPE_FROM_ARGS = {"view", "reshape", "expand", "to", "long", "float", "half", "double", "bfloat16"}
_TERMINAL = (ast.Return, ast.Raise, ast.Continue, ast.Break)
_MAX_DEPTH = 200  # deeper expressions are left unknown instead of overflowing the stack


class Interpreter:
    """Analyses one function (or the module body) with its own environment."""

    def __init__(self, source: SourceFile, module_names: Dict[str, object], report: Callable[..., None],
                 flag: Optional[Callable[..., None]] = None):
        self.source = source
        self.env: Dict[str, object] = dict(module_names)
        self.report = report
        self.flag = flag or (lambda *a: None)  # (node, violation, node to fix) for dataflow rules
        self.module = None  # the module's functions and classes (calls.ModuleContext), for calls
        self.returns: list = []
        self.call_depth = 0
        # names whose facts rest on a shape comment: good evidence next to the code they describe,
        # too informal to carry into another function (see calls.py)
        self.informal: set = set()
        self._comment_used = False
        self.class_name: Optional[str] = None  # set while analysing a method
        self.instance = None  # modules.InstanceVal whose method this is, when called on a known instance
        self.in_function = False  # False for the module body: a script's driver
        self.depth = 0
        self._last_value_node = None
        self.params: set = set()
        self.trace: Optional[list] = None  # (line, name, value) of every binding, for `gather-lint shapes`
        self.comments = CommentLines(source, 0)

    # ----- entry points -------------------------------------------------------------------------
    def run_function(self, node, caller_facts: Optional[Dict[str, object]] = None) -> None:
        self.comments = CommentLines(self.source, node.lineno, node.end_lineno or node.lineno)
        self.in_function = True
        self._bind_parameters(node)
        self._def_line_comments(node)
        if self.module is not None and self.class_name is None:
            self.class_name = self.module.class_of.get(node)
        if self.module is not None and self.class_name is not None and getattr(node, "name", "") != "__init__":
            facts = self.instance.facts if self.instance is not None and self.instance.facts else ()
            self.env.update(self.module.attributes(self.class_name, facts))
        for name, fact in (caller_facts or {}).items():
            self.env[name] = fill_gaps(self.env.get(name), fact)  # the callee's own annotations win
        self.block(node.body)

    def block(self, body: List[ast.stmt]) -> bool:
        """Run statements in order; True when the block always leaves (return/raise/...)."""
        for stmt in body:
            self._comments_before(stmt)
            self.stmt(stmt)
            if isinstance(stmt, _TERMINAL):
                return True
        return False

    # ----- statements ---------------------------------------------------------------------------
    def stmt(self, node: ast.stmt) -> None:
        method = getattr(self, "stmt_" + type(node).__name__, None)
        if method is not None:
            method(node)
        else:
            for child in ast.iter_child_nodes(node):
                if isinstance(child, ast.expr):
                    self.expr(child)
        self._pragmas_on(node)

    def stmt_Import(self, node: ast.Import) -> None:
        for alias in node.names:
            if alias.asname:
                self.env[alias.asname] = QualName(alias.name)
            else:
                top = alias.name.split(".")[0]
                self.env[top] = QualName(top)

    def stmt_ImportFrom(self, node: ast.ImportFrom) -> None:
        if node.level or not node.module:
            for alias in node.names:
                self.env[alias.asname or alias.name] = None
            return
        for alias in node.names:
            self.env[alias.asname or alias.name] = QualName(f"{node.module}.{alias.name}")

    def stmt_FunctionDef(self, node) -> None:
        self.env[node.name] = None  # analysed on its own by the module driver

    stmt_AsyncFunctionDef = stmt_FunctionDef

    def stmt_ClassDef(self, node: ast.ClassDef) -> None:
        self.env[node.name] = None

    def stmt_Assert(self, node: ast.Assert) -> None:
        self.expr(node.test)
        self.expr(node.msg)
        for key, shape, one_dim in assert_facts.facts(node.test, self.expr):
            learnt = assert_facts.apply(self.env.get(key), shape, one_dim)
            if learnt is not None:
                self.env[key] = learnt

    def stmt_Expr(self, node: ast.Expr) -> None:
        self.expr(node.value)

    def stmt_Assign(self, node: ast.Assign) -> None:
        result = self.expr(node.value)
        if len(node.targets) == 1 and isinstance(node.targets[0], ast.Subscript):
            self._check_subscript_rmw(node, node.targets[0])
        self._last_value_node = node.value
        self._comment_used = False
        for target in node.targets:
            if isinstance(target, (ast.Name, ast.Attribute)) and len(node.targets) == 1:
                result = self._with_comment(result, node)
            self.assign(target, result)
        self._taint(node.targets, node.value)
        self._last_value_node = None

    def _taint(self, targets, value_node) -> None:
        informal = self._comment_used or self.uses_informal(value_node)
        for target in targets:
            for key in _bound_keys(target):
                (self.informal.add if informal else self.informal.discard)(key)

    def uses_informal(self, node) -> bool:
        return node is not None and any(key in self.informal for key in _read_keys(node))

    def stmt_AnnAssign(self, node: ast.AnnAssign) -> None:
        declared = self.annotation(node.annotation)
        result = self.expr(node.value) if node.value is not None else None
        self._comment_used = False
        if isinstance(declared, TensorVal):
            result = _merge(result, declared.shape, declared.origin, dtype=declared.dtype)
        elif node.value is not None and isinstance(node.target, ast.Name):
            result = self._with_comment(result, node)
        if node.value is not None or isinstance(declared, TensorVal):
            self.assign(node.target, result)
            self._taint([node.target], node.value)

    def stmt_AugAssign(self, node: ast.AugAssign) -> None:
        right = self.expr(node.value)
        if isinstance(node.target, ast.Name):
            left = self.env.get(node.target.id)
            symbol = _BINOPS.get(type(node.op))
            if isinstance(left, TensorVal) and symbol:
                self._check_broadcast(node, node.target, left, node.value, right, symbol + "=")
                out = ops.binary(left, right, symbol)
                # in-place ops keep the left shape whenever broadcasting keeps it
                self.env[node.target.id] = out if out is not None and out.shape == left.shape else \
                    TensorVal(None, out.dtype if out is not None else None)
            else:
                self.env[node.target.id] = sequences.concat(left, right, _BINOPS.get(type(node.op)))
        else:
            self.expr(node.target)
            if isinstance(node.target, ast.Subscript) and isinstance(node.op, (ast.Add, ast.Sub)):
                self._check_overwrite(node, right)


    def _check_subscript_rmw(self, node: ast.Assign, target: ast.Subscript) -> None:
        """x[I] = f(x[I]): the read and the write are the same positions, so repeated I is lost."""
        if not isinstance(self.expr(target.value), TensorVal):
            return  # dicts and lists are written by key, not by tensor index
        text = ast.dump(target.value), ast.dump(target.slice)
        reads = any(isinstance(n, ast.Subscript) and (ast.dump(n.value), ast.dump(n.slice)) == text
                    for n in ast.walk(node.value))
        index = self.expr(target.slice) if reads and not isinstance(target.slice, ast.Tuple) else None
        if _can_repeat(index) and not self._maybe_one_element(target.slice):
            x, i = self.source.segment(target.value), self.source.segment(target.slice)
            self.flag(node, overwrite.check_read_modify_write(
                f"{x}[{i}] = ...", i, index.domain.origin,
                f"`{method_call(x, f'index_put_(({i},), <increment>, accumulate=True)')}`", self._plain_increment(node.value, target)),
                None)

    def _check_op_rmw(self, node: ast.Call, op, bound, values) -> None:
        """x.scatter_(d, I, f(x.gather(d, I))) / x.index_copy_(d, I, f(x.index_select(d, I)))."""
        reader = {"scatter": "gather", "index_copy": "index_select"}.get(op.name)
        payload = bound.get("src", bound.get("value")) if op.name == "scatter" else bound.get("source")
        if reader is None or payload is None or "reduce" in bound or not isinstance(node.func, ast.Attribute):
            return
        receiver, index = ast.dump(bound["input"]), ast.dump(bound["index"])
        reads = any(isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute) and n.func.attr == reader
                    and ast.dump(n.func.value) == receiver and len(n.args) >= 2 and ast.dump(n.args[1]) == index
                    for n in ast.walk(payload))
        found = values["index"]  # already evaluated by build_site
        if reads and _can_repeat(found):
            adder = "scatter_add_" if op.name == "scatter" else "index_add_"
            self.flag(node, overwrite.check_read_modify_write(
                f"{self.source.segment(bound['input'])}.{op.spelled}(...)", self.source.segment(bound["index"]),
                found.domain.origin, f"`.{adder}(...)` on the increment alone",
                self._increment_fits_reader(payload, reader, receiver, index)), None)

    def _increment_fits_reader(self, payload, reader: str, receiver: str, index: str) -> bool:
        """`x.gather(d, I) + v` (or `- v`) with v a tensor of the read's shape: the adder takes v alone."""
        if not isinstance(payload, ast.BinOp) or not isinstance(payload.op, (ast.Add, ast.Sub)):
            return False

        def is_read(n) -> bool:
            return (isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute) and n.func.attr == reader
                    and ast.dump(n.func.value) == receiver and len(n.args) >= 2 and ast.dump(n.args[1]) == index)

        if is_read(payload.left):
            read, other = payload.left, payload.right
        elif is_read(payload.right) and isinstance(payload.op, ast.Add):
            read, other = payload.right, payload.left
        else:
            return False
        a, b = self.expr(read), self.expr(other)
        if not (isinstance(a, TensorVal) and isinstance(b, TensorVal)) or a.shape is None or b.shape is None \
                or a.shape.variadic or b.shape.variadic or len(a.shape.dims) != len(b.shape.dims):
            return False
        if a.dtype is not None and b.dtype is not None and a.dtype != b.dtype:
            return False
        return all(must_equal(x, y) for x, y in zip(a.shape.dims, b.shape.dims))

    def _convertible(self, node, value) -> bool:
        """An increment GL013's fix can hand to index_put_: a number literal or a known tensor."""
        if isinstance(node, ast.UnaryOp) and isinstance(node.op, (ast.USub, ast.UAdd)):
            node = node.operand
        literal = isinstance(node, ast.Constant) and type(node.value) in (int, float)
        return literal or isinstance(value, TensorVal)

    def _plain_increment(self, value_node, target) -> bool:
        """`x[i] + v`, `v + x[i]` or `x[i] - v` with v convertible (the rest are not rewritten)."""
        if not isinstance(value_node, ast.BinOp) or not isinstance(value_node.op, (ast.Add, ast.Sub)):
            return False
        key = (ast.dump(target.value), ast.dump(target.slice))  # the target is Store, the read Load: compare parts
        same = [isinstance(side, ast.Subscript) and (ast.dump(side.value), ast.dump(side.slice)) == key
                for side in (value_node.left, value_node.right)]
        other = value_node.right if same[0] else value_node.left if same[1] and isinstance(value_node.op, ast.Add) else None
        return other is not None and self._convertible(other, self.expr(other))

    def _maybe_one_element(self, index_node) -> bool:
        """`x[ids[i]] += 1` with a plain (non-tensor) i picks one element of a 1-d ids: nothing can repeat."""
        if not isinstance(index_node, ast.Subscript) or \
                not isinstance(index_node.slice, (ast.Name, ast.Constant, ast.BinOp, ast.UnaryOp)):
            return False  # a slice, a mask comparison, a tuple: a selection of many
        return not isinstance(self.expr(index_node.slice), TensorVal)

    def _check_overwrite(self, node: ast.AugAssign, value=None) -> None:
        """GL013: x[ids] += v with ids that can repeat adds once per distinct id."""
        if not isinstance(self.expr(node.target.value), TensorVal):
            return  # only a known tensor: lists and dicts are indexed by position or key
        key = self.expr(node.target.slice)
        items = key.items if isinstance(key, SeqVal) else (key,)
        tensors = [k for k in items if isinstance(k, TensorVal) or k is None]
        # with several index tensors the positions are tuples: one component repeating proves nothing
        if len(tensors) != 1 or not _can_repeat(tensors[0]) or self._maybe_one_element(node.target.slice):
            return
        index = tensors[0]
        violation = overwrite.check_augmented(self.source.segment(node.target.value), self.source.segment(node.target.slice),
                                              index.domain.origin, "+=" if isinstance(node.op, ast.Add) else "-=",
                                              self.source.segment(node.value), self._convertible(node.value, value))
        self.flag(node, violation, None)

    def stmt_If(self, node: ast.If) -> None:
        certain = branches.truth(self.expr(node.test))
        if certain is not None:  # the other branch cannot run: do not check it with these facts
            self.block(node.body if certain else node.orelse)
            return
        before = dict(self.env)
        left_exits = self.block(node.body)
        after_body = self.env
        self.env = dict(before)
        right_exits = self.block(node.orelse)
        if left_exits and not right_exits:
            return
        if right_exits and not left_exits:
            self.env = after_body
            return
        self.env = _join_env(after_body, self.env)

    def stmt_For(self, node) -> None:
        iterable = self.expr(node.iter)
        self._forget(node.body + node.orelse)
        self.assign(node.target, _row_of(iterable, node.iter))
        before = dict(self.env)
        self.block(node.body)
        self.env = _join_env(before, self.env)
        self.block(node.orelse)

    stmt_AsyncFor = stmt_For

    def stmt_While(self, node: ast.While) -> None:
        self._forget(node.body + node.orelse)
        self.expr(node.test)
        before = dict(self.env)
        self.block(node.body)
        self.env = _join_env(before, self.env)
        self.block(node.orelse)

    def stmt_With(self, node) -> None:
        for item in node.items:
            result = self.expr(item.context_expr)
            if item.optional_vars is not None:
                self.assign(item.optional_vars, None if not isinstance(result, TensorVal) else result)
        self.block(node.body)

    stmt_AsyncWith = stmt_With

    def stmt_Try(self, node) -> None:
        before = dict(self.env)
        self._forget(node.body)
        forgotten = dict(self.env)
        self.env = before
        self.block(node.body)
        self.block(node.orelse)
        results = [self.env]
        for handler in node.handlers:
            self.env = dict(forgotten)
            if handler.name:
                self.env[handler.name] = None
            if not self.block(handler.body):
                results.append(self.env)
        self.env = results[0]
        for other in results[1:]:
            self.env = _join_env(self.env, other)
        self.block(node.finalbody)

    stmt_TryStar = stmt_Try

    def stmt_Match(self, node) -> None:
        self.expr(node.subject)
        before = dict(self.env)
        self._forget([c for case in node.cases for c in case.body])
        forgotten = dict(self.env)
        results = []
        for case in node.cases:
            self.env = dict(forgotten)
            if case.guard is not None:
                self.expr(case.guard)
            if not self.block(case.body):
                results.append(self.env)
        self.env = before
        for other in results:
            self.env = _join_env(self.env, other)

    def stmt_Return(self, node: ast.Return) -> None:
        self.returns.append(self.expr(node.value) if node.value is not None else Literal(None))

    def stmt_Delete(self, node: ast.Delete) -> None:
        for target in node.targets:
            if isinstance(target, ast.Name):
                self.env.pop(target.id, None)

    def stmt_Global(self, node) -> None:
        for name in node.names:
            self.env[name] = None

    stmt_Nonlocal = stmt_Global

    # ----- assignment ---------------------------------------------------------------------------
    def assign(self, target: ast.AST, result) -> None:
        if self.trace is not None and isinstance(target, (ast.Name, ast.Attribute)) and isinstance(result, TensorVal):
            name = target.id if isinstance(target, ast.Name) else ast.unparse(target)
            self.trace.append((target.lineno, name, result))
        if isinstance(target, ast.Name):
            if self.comments.pending:
                result = self._pending_comment(target.id, result)
            if isinstance(result, DimVal) and result.dim is not None and not isinstance(result.dim, int):
                result = DimVal(_named(result.dim, target.id))
            elif isinstance(result, DimVal) and isinstance(result.dim, int) and result.dim > 1:
                result = DimVal(Sym(target.id, expr=target.id, size=result.dim))
            self.env[target.id] = result
        elif isinstance(target, (ast.Tuple, ast.List)):
            self._unpack(target, result)
        elif isinstance(target, ast.Starred):
            self.assign(target.value, None)
        elif isinstance(target, ast.Attribute) and isinstance(target.value, ast.Name):
            self.env[f"{target.value.id}.{target.attr}"] = result  # self.x = ...: tracked within this function
        elif isinstance(target, ast.Subscript) and isinstance(target.value, ast.Name):
            self.expr(target.value)
            key = self.expr(target.slice)
            owner = self.env.get(target.value.id)
            if isinstance(owner, SeqVal):  # shape[0] = n
                self.env[target.value.id] = sequences.set_item(owner, self.expr(target.slice), result)
            if isinstance(owner, config.DictVal):
                self.env[target.value.id] = None  # cfg["batch"] = ...: the literal no longer holds
            if isinstance(owner, TensorVal) and isinstance(result, DimVal):
                # labels[labels == pad] = -100 puts padding in; = 0 takes it out
                self.env[target.value.id] = _with_sentinel(owner, _negative(result), target.lineno)
                if ops.as_int(result) is not None and ops.as_int(result) > 0:
                    self.env[target.value.id] = value_ranges.written(self.env[target.value.id], ops.as_int(result), target.lineno)
            elif isinstance(owner, TensorVal) and _writes_by_positions(key, target.slice):
                # inv[perm] = arange(n): positions from a tensor may cover every padded slot
                self.env[target.value.id] = _with_sentinel(owner, None, None)
        else:
            self.expr(target)  # x[i] = v: evaluate for nested sites, bind nothing

    def _unpack(self, target, result) -> None:
        elts = target.elts
        if isinstance(result, SeqVal) and len(result.items) == len(elts) and not any(isinstance(e, ast.Starred) for e in elts):
            for element, item in zip(elts, result.items):
                self.assign(element, item)
            return
        stars = [k for k, e in enumerate(elts) if isinstance(e, ast.Starred)]
        if isinstance(result, SeqVal) and len(stars) == 1:
            split = sequences.split_starred(result.items, stars[0], len(elts) - stars[0] - 1)
            if split is not None:  # *batch, n, m = x.shape
                head, middle, tail = split
                for element, item in zip(elts, head + [middle] + tail):
                    self.assign(element.value if isinstance(element, ast.Starred) else element, item)
                return
        for element in elts:
            self.assign(element, None)
        self._shape_unpack(target, result)

    def _shape_unpack(self, target, result) -> None:
        """`B, T, C = x.shape` with x of unknown shape: x has rank 3 and dims B, T, C."""
        value_node = getattr(self, "_last_value_node", None)
        if value_node is None or result is not None:
            return
        owner = _shape_owner(value_node)
        elts = target.elts
        variadic = bool(elts) and isinstance(elts[0], ast.Starred)  # *batch, n, m = x.shape: x is [..., n, m]
        if variadic:
            elts = elts[1:]
        if owner is None or any(not isinstance(e, ast.Name) for e in elts):
            return
        old = self.env.get(owner)
        if old is not None and not isinstance(old, TensorVal):
            return
        dims = tuple(Sym(e.id, expr=e.id) if e.id != "_" else None for e in elts)
        tensor = old or TensorVal()
        if tensor.shape is None:
            self.env[owner] = tensor.with_(shape=Shape(dims, variadic), origin="shape unpacking")
        for e, d in zip(elts, dims):
            if d is not None:
                self.env[e.id] = DimVal(d)

    def _forget(self, body: List[ast.stmt]) -> None:
        for node in body:
            for sub in ast.walk(node):
                if isinstance(sub, ast.Name) and isinstance(sub.ctx, ast.Store):
                    self.env[sub.id] = None
                elif isinstance(sub, ast.Attribute) and isinstance(sub.ctx, ast.Store) and isinstance(sub.value, ast.Name):
                    self.env[f"{sub.value.id}.{sub.attr}"] = None
                elif isinstance(sub, (ast.AugAssign,)) and isinstance(sub.target, ast.Name):
                    self.env[sub.target.id] = None

    # ----- facts from text ----------------------------------------------------------------------
    def _with_comment(self, result, node: ast.stmt):
        comment = self.source.shape_comment(node.lineno, node.end_lineno or node.lineno)
        if comment is None or isinstance(result, (DimVal, SeqVal, QualName, Literal)):
            return result
        target = node.targets[0] if isinstance(node, ast.Assign) else node.target
        name = target.id if isinstance(target, ast.Name) else getattr(target, "attr", None)
        shape = parse_comment(comment.text, name)
        if shape is None:
            return result
        merged = _merge(result, shape, f"comment line {comment.line}")
        self._comment_used = merged is not result
        return merged

    def _comments_before(self, stmt: ast.stmt) -> None:
        """Pragmas and `# name: [dims]` lines between the previous statement and this one."""
        gap = self.comments.gap_before(stmt)
        if gap is None:
            return
        self._apply_pragmas(*gap)
        for line, name, shape in self.comments.entries(*gap):
            if name in self.env or name in self.params:
                self._declare(name, shape, line)
            else:
                self.comments.pending[name] = (shape, line)

    def _def_line_comments(self, node) -> None:
        """`def forward(self, obs, act):  # obs: (B, D)  act: (B,)`."""
        if not node.body:
            return
        for line, name, shape in self.comments.trailing_entries(node.lineno, node.body[0].lineno - 1):
            if name in self.params:
                self._declare(name, shape, line)

    def _declare(self, name: str, shape, line: int) -> None:
        old = self.env.get(name)
        if old is None or isinstance(old, TensorVal):
            self.env[name] = _merge(old, shape, f"comment line {line}")
            self.informal.add(name)

    def _pending_comment(self, name: str, result):
        """The first binding of a name that a comment line above described."""
        declared = self.comments.pending.pop(name, None)
        if declared is None or not (result is None or isinstance(result, TensorVal)):
            return result
        merged = _merge(result, declared[0], f"comment line {declared[1]}")
        self._comment_used = self._comment_used or merged is not result
        return merged

    def _pragmas_on(self, stmt: ast.stmt) -> None:
        if not isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.If, ast.For, ast.While, ast.With, ast.Try)):
            self._apply_pragmas(stmt.lineno, stmt.end_lineno or stmt.lineno)

    def _apply_pragmas(self, first: int, last: int) -> None:
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
        doc = ast.get_docstring(node, clean=False) or ""
        documented = parse_docstring(doc, [p.arg for p in params]) if doc else {}
        sizes = docstring_ints(doc, [p.arg for p in params]) if doc else set()
        single_line = _single_param_lines(params)
        for param in params:
            fact = self.annotation(param.annotation) if param.annotation is not None else None
            if not isinstance(fact, TensorVal):
                fact = None
            if param.arg in single_line:
                comment = self.source.comment(param.lineno)
                shape = parse_comment(comment.text, param.arg) if comment and not comment.standalone else None
                if shape is not None:
                    fact = _merge(fact, shape, f"comment line {param.lineno}")
                    self.informal.add(param.arg)
            if fact is None and param.arg in documented:
                shape, dtype = documented[param.arg]
                fact = TensorVal(shape, dtype, origin="docstring")
            elif isinstance(fact, TensorVal) and fact.shape is None and param.arg in documented:
                fact = fact.with_(shape=documented[param.arg][0], origin="docstring")
            if fact is None and (_is_int_param(param) or param.arg in sizes):
                fact = DimVal(Sym(param.arg, expr=param.arg))
            self.env[param.arg] = fact
            if self.trace is not None and isinstance(fact, TensorVal):
                self.trace.append((param.lineno, param.arg, fact))
        header_comments.bind(self, node, params)  # `# x: [B, D], y: [B]` atop the body

    def annotation(self, node) -> Optional[object]:
        """jaxtyping `Float[Tensor, "b l v"]`, torchtyping `TensorType["b", "l"]`, plain `torch.Tensor`."""
        if node is None:
            return None
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            try:
                node = ast.parse(node.value, mode="eval").body
            except SyntaxError:
                return None
        if isinstance(node, ast.Subscript):
            head = _last_name(node.value)
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
        head = _last_name(node)
        if head in TENSOR_TYPES:
            return TensorVal(None, TENSOR_TYPES[head], origin="annotation")
        return None

    # ----- expressions --------------------------------------------------------------------------
    def expr(self, node: Optional[ast.AST]):
        if node is None:
            return None
        if self.depth > _MAX_DEPTH:
            return None
        self.depth += 1
        try:
            method = getattr(self, "expr_" + type(node).__name__, None)
            if method is None:
                for child in ast.iter_child_nodes(node):
                    if isinstance(child, ast.expr):
                        self.expr(child)
                return None
            return method(node)
        finally:
            self.depth -= 1

    def expr_Constant(self, node: ast.Constant):
        v = node.value
        if isinstance(v, int) and not isinstance(v, bool):
            return DimVal(v)
        return Literal(v)

    def expr_UnaryOp(self, node: ast.UnaryOp):
        operand = self.expr(node.operand)
        if isinstance(node.op, ast.Not) and branches.truth(operand) is not None:
            return Literal(not branches.truth(operand))
        if isinstance(node.op, ast.USub) and isinstance(operand, DimVal) and isinstance(operand.dim, int):
            return DimVal(-operand.dim)
        if isinstance(node.op, ast.USub) and isinstance(operand, Literal) and isinstance(operand.value, float):
            return Literal(-operand.value)
        if isinstance(operand, TensorVal):
            return operand.with_(domain=None, origin="", dtype="bool" if isinstance(node.op, ast.Not) else operand.dtype)
        return None

    def expr_Name(self, node: ast.Name):
        if node.id in self.env:
            found = self.env[node.id]
        elif node.id == "torch":
            found = QualName("torch")
        else:
            found = None
        if found is None or (isinstance(found, TensorVal) and not _is_float(found) and (
                found.domain is None or (found.domain.size is None and not found.domain.category))):
            domain = category_domain(node.id)
            if domain is not None:
                old = found.domain if isinstance(found, TensorVal) else None
                if old is not None:
                    domain = replace(old, origin=domain.origin, category=True, repeats=True)
                return (found or TensorVal()).with_(domain=domain)
        return found

    def expr_Attribute(self, node: ast.Attribute):
        if isinstance(node.value, ast.Name):
            key = f"{node.value.id}.{node.attr}"
            if key in self.env:
                return self.env[key]
        owner = self.expr(node.value)
        attr = node.attr
        if isinstance(owner, QualName):
            if owner.name == "torch" and attr in ops.DTYPE_NAMES:
                return Literal("dtype:" + ops.DTYPE_NAMES[attr])
            return QualName(f"{owner.name}.{attr}")
        if isinstance(owner, TensorVal):
            if attr == "shape":
                return ops.size_of(owner, [])
            if attr == "ndim":
                return ops.apply_method("dim", owner, [], {}, "")
            if attr in ("T", "mT") and owner.shape is not None and not owner.shape.variadic:
                dims = owner.shape.dims
                if attr == "T":
                    return owner.with_(shape=Shape(tuple(reversed(dims))))
                if len(dims) >= 2:
                    return owner.with_(shape=Shape(dims[:-2] + (dims[-1], dims[-2])))
            if attr == "dtype":
                return Literal("dtype:" + owner.dtype) if owner.dtype else None
            if attr in ("data", "grad"):
                return TensorVal(owner.shape, owner.dtype, owner.domain)
            return None
        if isinstance(owner, SeqVal) and attr in owner.names:
            return owner.items[owner.names.index(attr)]
        if isinstance(owner, LayerVal) and attr == "weight":
            return owner.weight
        if isinstance(owner, InstanceVal) and self.module is not None and owner.facts is not None:
            return self.module.attributes(owner.class_name, owner.facts).get(f"self.{attr}")
        return None

    def expr_Subscript(self, node: ast.Subscript):
        owner = self.expr(node.value)
        key = self.expr(node.slice)
        if isinstance(owner, SeqVal):
            k = ops.as_int(key)
            if k is not None and -len(owner.items) <= k < len(owner.items):
                return owner.items[k]
            if isinstance(key, ops.SliceVal):
                bounds = [ops.as_int(v) if v is not None else None for v in (key.lower, key.upper, key.step)]
                if all((v is None) == (b is None) for v, b in zip((key.lower, key.upper, key.step), bounds)):
                    return SeqVal(owner.items[slice(*bounds)])
            return None
        if isinstance(owner, TensorVal):
            crossed = advanced_indexing.check(self, node, owner, key)  # GL017
            return crossed or ops.index_tensor(owner, key)
        if isinstance(owner, config.DictVal):
            return owner.get(key)
        return None

    def expr_Dict(self, node: ast.Dict):
        keys = [self.expr(k) if k is not None else None for k in node.keys]
        values = [self.expr(v) for v in node.values]
        return config.literal_dict(keys, values) if None not in node.keys else None

    def expr_Slice(self, node: ast.Slice):
        def bound(part):  # an unknown bound is not an absent one: x[:n] is not x[:]
            if part is None:
                return None
            found = self.expr(part)
            return _UNKNOWN_BOUND if found is None else found
        return ops.SliceVal(bound(node.lower), bound(node.upper), bound(node.step))

    def expr_Tuple(self, node):
        items = tuple(self.expr(e) for e in node.elts)
        if any(isinstance(e, ast.Starred) for e in node.elts):
            return None
        return SeqVal(items)

    expr_List = expr_Tuple

    def expr_BinOp(self, node: ast.BinOp):
        left, right = self.expr(node.left), self.expr(node.right)
        symbol = _BINOPS.get(type(node.op))
        if isinstance(node.op, ast.MatMult):
            if isinstance(left, TensorVal) and isinstance(right, TensorVal):
                return ops.matmul(left, right)
            return None
        if isinstance(left, DimVal) and isinstance(right, DimVal):
            return _dim_arith(left.dim, right.dim, symbol)
        if isinstance(left, SeqVal) or isinstance(right, SeqVal):
            return sequences.concat(left, right, symbol)
        if symbol is None:
            return None
        self._check_broadcast(node, node.left, left, node.right, right, symbol)
        result = _carry(left, right, ops.binary(left, right, symbol))
        if symbol == "%" and isinstance(left, TensorVal) and isinstance(right, DimVal) and isinstance(result, TensorVal) \
                and (value(right.dim) or 0) > 0 or (symbol == "%" and isinstance(right, DimVal) and isinstance(right.dim, Sym)
                                                    and isinstance(result, TensorVal)):
            # Python-style remainder by a positive size: values in [0, n), whatever the sign of the input
            result = result.with_(dtype=left.dtype if isinstance(left, TensorVal) else result.dtype,
                                  domain=Domain(right.dim, origin=f"`% {dim_text(right.dim)}` remainders"))
        if symbol == "/" and isinstance(result, TensorVal) and result.dtype in ops.FLOAT_DTYPES and not any(
                isinstance(v, TensorVal) and v.dtype in ops.FLOAT_DTYPES for v in (left, right)):
            # `//` there is the fix unless a float literal would keep the result a float
            floor_fixes = not any(isinstance(side, ast.Constant) and isinstance(side.value, float)
                                  for side in (node.left, node.right))
            result = _made_float(result, f"the true division `/` at line {node.lineno}",
                                 self._span(node) if floor_fixes else None)
        return result

    def expr_Compare(self, node: ast.Compare):
        values = [self.expr(node.left)] + [self.expr(c) for c in node.comparators]
        tensors = [v for v in values if isinstance(v, TensorVal)]
        if tensors and len(node.ops) == 1 and not isinstance(node.ops[0], (ast.Is, ast.IsNot, ast.In, ast.NotIn)):
            self._check_broadcast(node, node.left, values[0], node.comparators[0], values[1], "comparison")
            return ops.binary(values[0], values[1], "==")
        if len(node.ops) == 1 and not tensors:
            return branches.compare(values[0], node.ops[0], values[1])
        return None

    def expr_BoolOp(self, node: ast.BoolOp):
        return branches.bool_op(node.op, [self.expr(v) for v in node.values])

    def expr_IfExp(self, node: ast.IfExp):
        self.expr(node.test)
        return join(self.expr(node.body), self.expr(node.orelse))

    def expr_NamedExpr(self, node: ast.NamedExpr):
        result = self.expr(node.value)
        self.assign(node.target, result)
        return result

    def expr_Lambda(self, node: ast.Lambda):
        return None  # its parameters are unknown; its body runs elsewhere

    def _comprehension(self, node):
        saved = dict(self.env)
        for gen in node.generators:
            iterable = self.expr(gen.iter)
            self.assign(gen.target, _row_of(iterable, gen.iter))
            for cond in gen.ifs:
                self.expr(cond)
        if isinstance(node, ast.DictComp):
            self.expr(node.key)
            self.expr(node.value)
            element = None
        else:
            element = self.expr(node.elt)
        self.env = saved
        return ops.Repeated(element) if isinstance(node, ast.ListComp) and isinstance(element, TensorVal) else None

    expr_ListComp = expr_SetComp = expr_GeneratorExp = expr_DictComp = _comprehension

    def expr_Call(self, node: ast.Call):
        resolved = resolve_op(node, self._peek)
        if resolved is not None:
            op, method, receiver = resolved
            bound = bind_call(op, method, receiver, node)
            if bound is not None:
                built = build_site(op, bound, self.expr, self.source.segment)
                if built is not None:
                    site, values = built
                    self.report(node, site, check(site), bound, self)
                    self._check_op_rmw(node, op, bound, values)
                    result = result_of(site, values)
                    return result.with_(kept_at=node) if result is not None and result.kept_singleton is not None else result
        return self._call(node)

    def _peek(self, node):
        """Evaluate without side effects on sites (receivers are evaluated again by build_site)."""
        if isinstance(node, ast.Name):
            return self.expr_Name(node)
        if isinstance(node, ast.Attribute) and isinstance(node.value, (ast.Name, ast.Attribute)):
            return self.expr_Attribute(node)
        return self.expr(node) if not _has_call(node) else _UNKNOWN_TENSORISH

    def _call(self, node: ast.Call):
        func = node.func
        if isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name):
            key = f"{func.value.id}.{func.attr}"
            layer = self.env.get(key)
            if isinstance(layer, QualName):  # self.loss_fn = nn.MSELoss() in __init__
                args, kwargs = self._args(node)
                return self._qualified_call(layer.name, node, args, kwargs)
            if modules.is_layer(layer):
                args, _ = self._args(node)
                if isinstance(layer, LayerVal) and layer.kind == "Embedding" and len(args) == 1 and isinstance(args[0], TensorVal):
                    self._check_padding_lookup(node, node.args[0], args[0], f"{key}() (nn.Embedding)")
                return layer.apply(args[0]) if len(args) == 1 else None
            if isinstance(layer, InstanceVal) and self.module is not None:
                args, kwargs = self._args(node)
                return self._call_instance(layer, node, args, kwargs)
            if func.value.id == "self" and func.attr == "register_buffer" and len(node.args) >= 2 \
                    and isinstance(node.args[0], ast.Constant) and isinstance(node.args[0].value, str):
                self.env[f"self.{node.args[0].value}"] = self.expr(node.args[1])
                return None
            if func.value.id == "self" and self.module is not None and self.class_name and key not in self.env:
                callee = self.module.methods.get((self.class_name, func.attr))
                if callee is not None:
                    args, kwargs = self._args(node)
                    return self._call_module_function(callee, node, [None] + args, kwargs, skip_first=True)
        if isinstance(func, ast.Attribute):
            owner = self.expr(func.value)
            args, kwargs = self._args(node)
            if isinstance(owner, SeqVal) and func.attr in sequences.MUTATORS and isinstance(func.value, ast.Name):
                self.env[func.value.id] = None  # shape.append(d): the list's length is no longer known
                return None
            if isinstance(owner, config.DictVal) and func.attr in config.MUTATORS and isinstance(func.value, ast.Name):
                self.env[func.value.id] = None
            if isinstance(owner, TensorVal):
                if func.attr == "squeeze" and not node.args and not node.keywords:
                    self._check_squeeze_all(node, func.value, owner)
                if (func.attr in _ARITH_METHODS or func.attr == "masked_select") and len(node.args) == 1:
                    self._check_broadcast(node, func.value, owner, node.args[0], args[0], f".{func.attr}()")
                result = ops.apply_method(func.attr, owner, args, kwargs, self.source.segment(func.value))
                result = _carry_shift(owner, result, func.attr, args)
                result = self._sentinel_after(func.attr, owner, result, args, kwargs, node)
                return _carry(owner, args[0] if func.attr in _ARITH_METHODS and args else owner, result)
            if isinstance(owner, QualName):
                return self._qualified_call(f"{owner.name}.{func.attr}", node, args, kwargs)
            if owner is None and func.attr in _SHAPE_FROM_ARGS:
                # x.view(B, T, 1) says the result's whole shape, x.to(torch.int32) its dtype, whatever x was
                result = ops.apply_method(func.attr, TensorVal(), args, kwargs, "")
                return result if isinstance(result, TensorVal) and (result.shape or result.dtype) else None
            return None
        target = self.expr(func)
        args, kwargs = self._args(node)
        if isinstance(target, QualName):
            return self._qualified_call(target.name, node, args, kwargs)
        if self.module is not None and (isinstance(target, InstanceVal) or modules.is_layer(target)):
            return self._call_instance(target, node, args, kwargs)
        if isinstance(func, ast.Name) and target is None and self.module is not None and func.id not in self.params \
                and func.id in self.module.classes and not any(isinstance(a, ast.Starred) for a in node.args):
            return self.module.instantiate(func.id, args, kwargs)
        if isinstance(func, ast.Name) and target is None and self.module is not None and func.id not in self.params:
            callee = self.module.functions.get(func.id)
            if callee is not None:
                return self._call_module_function(callee, node, args, kwargs)
        if isinstance(func, ast.Name) and func.id == "dict" and target is None and not args and _UNKNOWN_KWARGS not in kwargs:
            return config.keyword_dict(kwargs)
        if isinstance(func, ast.Name) and func.id in ("zip", "enumerate"):
            return SeqVal(tuple(args)) if func.id == "zip" else SeqVal((None, args[0] if args else None))
        if isinstance(func, ast.Name) and func.id in sequences.SEQUENCE_COPIES:
            return sequences.copy_of(args, kwargs)
        if isinstance(func, ast.Name) and func.id in ("int", "len") and args:
            return args[0] if func.id == "int" and isinstance(args[0], DimVal) else None
        return None

    def _sentinel_after(self, method: str, owner: TensorVal, result, args, kwargs, node):
        """masked_fill(m, -100) puts padding in, masked_fill(m, 0) / clamp(min=0) take it out."""
        if not isinstance(result, TensorVal):
            return result
        if method in ("masked_fill", "masked_fill_") and len(args) >= 2:
            if _negative(args[1]) is not None:
                return _with_sentinel(result, _negative(args[1]), node.lineno)
            return value_ranges.masked(_with_sentinel(result, None, None)) if ops.as_int(args[1]) is not None else result
        if method in ("float", "half", "double", "bfloat16", "to", "type") and result.dtype in ops.FLOAT_DTYPES \
                and owner.dtype is not None and owner.dtype not in ops.FLOAT_DTYPES:
            made = _made_float(result.with_(domain=owner.domain), f"`.{method}()` at line {node.lineno}")
            if result.dtype in _EXACT_UP_TO:
                base = made.domain
                made = made.with_(domain=replace(base, rounded=(result.dtype, _EXACT_UP_TO[result.dtype],
                                                                  f"`.{method}()` at line {node.lineno}"),
                                                 rounded_at=self._span(node)))
            return made
        if method == "sum":
            dim = kwargs.get("dim", args[0] if args else None)
            receiver = node.func.value if isinstance(node.func, ast.Attribute) and method == node.func.attr else \
                (node.args[0] if node.args else node)
            return value_ranges.length_of_mask(owner, result, ops.as_int(dim), self.source.segment(receiver))
        if method in ("clamp", "clip", "clamp_max", "clamp_"):
            upper = kwargs.get("max", args[0] if method == "clamp_max" and args else (args[1] if len(args) > 1 else None))
            result = value_ranges.clamped(result, upper)
        if method in ("long", "int", "to", "type") and result.dtype in ("int64", "int32") and owner.dtype in _EXACT_UP_TO:
            # ids stored in a half-precision tensor (a buffer sharing the model's dtype) come back rounded
            where = f"stored as {owner.dtype}, read back with `.{method}()` at line {node.lineno}"
            base = result.domain or Domain()
            return result.with_(domain=replace(base, rounded=(owner.dtype, _EXACT_UP_TO[owner.dtype], where)))
        if method in ops.TRUE_DIVISION and _is_float(result) and not _is_float(owner) and owner.dtype is not None:
            return _made_float(result, f"`{method}()` without rounding_mode at line {node.lineno}")
        if method in ("clamp", "clamp_", "clip", "clamp_min"):
            low = kwargs.get("min", args[0] if args else None)
            if ops.as_int(low) is not None and ops.as_int(low) >= 0:
                return _with_sentinel(result, None, None)
        return result

    def _call_instance(self, target, node: ast.Call, args, kwargs):
        """`layer(x)` / `q_net(obs)`: a layer's output shape, or a file class's forward on an instance."""
        if modules.is_layer(target):
            return target.apply(args[0]) if len(args) == 1 and not kwargs else None
        if any(isinstance(a, ast.Starred) for a in node.args):
            return None
        formal = [value_facts(v) if self.uses_informal(a) else v for a, v in zip(node.args, args)]
        return self.module.call_instance(self, target, node, formal, kwargs)

    def _call_module_function(self, callee, node: ast.Call, args, kwargs, skip_first: bool = False):
        """Hand a call of a module function (or of self.method) to the module with formal facts only."""
        arg_nodes = ([None] if skip_first else []) + list(node.args)
        if any(isinstance(a, ast.Starred) for a in node.args):
            return None
        formal = [value_facts(v) if self.uses_informal(a) else v for a, v in zip(arg_nodes, args)]
        formal_kw = {k.arg: (value_facts(kwargs.get(k.arg)) if self.uses_informal(k.value) else kwargs.get(k.arg))
                     for k in node.keywords if k.arg}
        formal_kw.update({k: v for k, v in kwargs.items() if k not in formal_kw})  # items of a **spread
        return self.module.call(self, callee, node, formal, formal_kw)

    def _check_padding_lookup(self, node, ids_node, ids: TensorVal, what: str) -> None:
        """GL011 for lookups that are not family calls: one_hot and embeddings reject negative ids too."""
        domain = ids.domain
        if domain is not None and domain.sentinel is not None and domain.sentinel < 0:
            self.flag(node, oob.padding_lookup(self.source.segment(ids_node), domain, what), None)

    def _span(self, node) -> Optional[tuple]:
        """A node's 1-based character span, where a fix at the cause (not at the call) edits."""
        if getattr(node, "end_lineno", None) is None:
            return None
        return (node.lineno, self.source.char_col(node.lineno, node.col_offset) + 1,
                node.end_lineno, self.source.char_col(node.end_lineno, node.end_col_offset) + 1)

    def _check_squeeze_all(self, node, owner_node, owner: TensorVal) -> None:
        """GL006, the reverse: .squeeze() on a gathered [1, L, 1] also drops the size-1 batch dim."""
        violation = missing_squeeze.check_squeeze_all(owner.shape, owner.kept_singleton, self.source.segment(owner_node))
        if violation is not None:
            self.flag(node, violation, None)

    def _check_broadcast(self, node, left_node, left, right_node, right, op: str) -> None:
        """GL006: a gather's kept singleton meeting a tensor that lacks it. Reported on the gather
        (where the squeeze belongs) when it is in this function, else where the two meet."""
        advanced_indexing.check_combined(self, left_node, left, right_node, right, op)  # GL017
        for mine, mine_node, other, other_node in ((left, left_node, right, right_node), (right, right_node, left, left_node)):
            if isinstance(mine, TensorVal) and mine.kept_singleton is not None and isinstance(other, TensorVal) \
                    and other.kept_singleton is None:
                gather = mine.kept_at if mine.kept_at is not None and self._in_this_function(mine.kept_at) else None
                at = gather or mine_node
                violation = missing_squeeze.check_broadcast(
                    mine.shape, mine.kept_singleton, other.shape, self.source.segment(at),
                    self.source.segment(other_node), op, node.lineno if gather is not None else None)
                if violation is not None:
                    self.flag(gather or node, violation, at)
                return

    def _in_this_function(self, node) -> bool:
        first, last = self.comments.span
        return first <= node.lineno <= last

    def _args(self, node: ast.Call):
        args = []
        for a in node.args:
            if isinstance(a, ast.Starred):
                spread = self.expr(a.value)
                if not isinstance(spread, SeqVal):
                    args.append(_UNKNOWN_ARITY)
                    continue
                args.extend(spread.items)
            else:
                args.append(self.expr(a))
        if _UNKNOWN_ARITY in args:
            args = [_UNKNOWN_ARITY]
        kwargs = {k.arg: self.expr(k.value) for k in node.keywords if k.arg}
        for k in node.keywords:
            if k.arg is None:
                spread = self.expr(k.value)
                if isinstance(spread, config.DictVal):
                    kwargs.update(spread.items)  # f(**cfg) with cfg a literal dict
                else:
                    kwargs[_UNKNOWN_KWARGS] = None
        return args, kwargs

    def _qualified_call(self, name: str, node: ast.Call, args: list, kwargs: dict):
        module, _, func = name.rpartition(".")
        if name in sequences.SEQUENCE_COPIES:
            return sequences.copy_of(args, kwargs)
        for left_node, left, right_node, right, what in broadcast_sites.pairs(module, func, node, args, kwargs):
            self._check_broadcast(node, left_node, left, right_node, right, what)
        if broadcast_sites.loss_module(module, func):
            return QualName(broadcast_sites.loss_module(module, func))
        if module == "torch" and func in broadcast_sites.BINARY and len(args) == 2 and all(
                isinstance(a, TensorVal) for a in args):  # torch.mul(a, b) broadcasts like a * b
            symbol = broadcast_sites.BINARY[func]
            return _carry(args[0], args[1], ops.binary(args[0], args[1], symbol if len(symbol) <= 2 else "+"))
        if module in ("torch", "torch.nn.functional", "torch.special", "torch.linalg"):
            if func in _CONSTRUCTORS and func != "full":  # full's fill value may be padding: below
                return _construct(func, args, kwargs, node)
            if func in _LIKE and args and isinstance(args[0], TensorVal):
                dtype = _dtype_kw(kwargs) or args[0].dtype
                filled = {"zeros_like": "zeros", "empty_like": "empty"}.get(func)
                return TensorVal(args[0].shape, dtype, filled=filled)
            if func in ("cat", "concat", "concatenate", "stack") and args:
                dim = ops.as_int(kwargs.get("dim", args[1] if len(args) > 1 else DimVal(0)))
                if isinstance(args[0], ops.Repeated):
                    return ops.cat_repeated(args[0].element, dim, stack=func == "stack")
                items = list(args[0].items) if isinstance(args[0], SeqVal) else []
                joined = ops.cat(items, dim, stack=func == "stack")
                padded = [t.domain for t in items if isinstance(t, TensorVal) and t.domain and t.domain.sentinel is not None]
                if isinstance(joined, TensorVal) and padded:
                    return _with_sentinel(joined, padded[0].sentinel, padded[0].sentinel_line)
                return joined
            if func == "where" and len(args) == 3:
                return _where(args, node.lineno)
            if func in ("full", "full_like"):
                made = _construct("full", args, kwargs, node) if func == "full" else (
                    TensorVal(args[0].shape, _dtype_kw(kwargs) or args[0].dtype) if args and isinstance(args[0], TensorVal) else None)
                fill = args[1] if len(args) > 1 else kwargs.get("fill_value")
                if isinstance(made, TensorVal) and _negative(fill) is not None:
                    return _with_sentinel(made, _negative(fill), node.lineno)
                return made
            if func == "pad" and args and isinstance(args[0], TensorVal):
                padded = TensorVal(None, args[0].dtype, args[0].domain)
                fill = kwargs.get("value", args[3] if len(args) > 3 else None)
                return _with_sentinel(padded, _negative(fill), node.lineno) if _negative(fill) is not None else padded
            if func in ("one_hot", "embedding") and args and isinstance(args[0], TensorVal):
                self._check_padding_lookup(node, node.args[0], args[0], f"F.{func}()")
            if func == "one_hot" and args and isinstance(args[0], TensorVal):
                n = kwargs.get("num_classes", args[1] if len(args) > 1 else None)
                s = args[0].shape
                if s is None or s.variadic or not isinstance(n, DimVal) or value(n.dim) == -1:
                    return TensorVal(None, "int64")
                return TensorVal(Shape(s.dims + (n.dim,)), "int64")
            if func == "embedding" and len(args) >= 2 and isinstance(args[1], TensorVal):
                ids, weight = args[0], args[1]
                if isinstance(ids, TensorVal) and ids.shape and weight.shape and not weight.shape.variadic and len(weight.shape.dims) == 2 and not ids.shape.variadic:
                    return TensorVal(Shape(ids.shape.dims + weight.shape.dims[1:]), weight.dtype)
                return TensorVal(None, weight.dtype)
            if func == "linear" and len(args) >= 2:
                return modules.linear(args[0], args[1])
            if func == "searchsorted" and len(args) >= 2 and isinstance(args[1], TensorVal):
                return TensorVal(args[1].shape, "int64")
            if func in _TORCH_ON_INPUT and args and isinstance(args[0], TensorVal):
                result = ops.apply_method(func, args[0], args[1:], kwargs, self.source.segment(node.args[0]))
                if func in ops.TRUE_DIVISION or func in ("sum", "clamp", "clip"):
                    result = self._sentinel_after(func, args[0], result, args[1:], kwargs, node)
                return _carry(args[0], args[0], _carry_shift(args[0], result, func, args[1:]))
            return None
        if module in modules.NN_MODULES:
            return modules.build(func, args, kwargs)
        if name.endswith("rearrange") and len(args) >= 2 and isinstance(args[0], TensorVal):
            pattern = args[1]
            if isinstance(pattern, Literal) and isinstance(pattern.value, str):
                return _rearrange(args[0], pattern.value, kwargs)
        return None


_ARITH_METHODS = {"mul", "add", "sub", "div", "mul_", "add_", "sub_", "div_", "maximum", "minimum", "eq", "ne",
                  "lt", "le", "gt", "ge"}


def _can_repeat(index) -> bool:
    """An integer index tensor whose values can repeat (ids, labels, randint): GL013's evidence."""
    return isinstance(index, TensorVal) and index.dtype not in ("bool", "uint8") and \
        index.domain is not None and index.domain.repeats


def _writes_by_positions(key, key_node) -> bool:
    """x[k] = v that may overwrite every padded slot: anything but a boolean mask or a bounded slice
    (`out[i, :len(row)] = row`, the padding idiom, leaves the slots past the row's end)."""
    items = key.items if isinstance(key, SeqVal) else (key,)
    if any(isinstance(k, TensorVal) and k.dtype == "bool" for k in items):
        return False
    nodes = key_node.elts if isinstance(key_node, ast.Tuple) else [key_node]
    return not any(isinstance(n, ast.Slice) and (n.lower is not None or n.upper is not None) for n in nodes)


def _negative(v) -> Optional[int]:
    """A negative int constant (a padding value such as -100), if v is one."""
    n = ops.as_int(v)
    return n if n is not None and n < 0 else None


_EXACT_UP_TO = {"float16": 2048, "bfloat16": 256}  # every integer up to this survives the round trip


def _made_float(t: TensorVal, how: str, at: Optional[tuple] = None) -> TensorVal:
    base = t.domain or Domain()
    return t.with_(domain=replace(base, made_float=how, made_float_at=at))


def _with_sentinel(t: TensorVal, value: Optional[int], line: Optional[int]) -> TensorVal:
    """t whose values may now include `value` (negative padding), or no longer any padding (None)."""
    base = t.domain or Domain()
    if value is None and base.sentinel is None:
        return t
    domain = replace(base, sentinel=value, sentinel_line=line if value is not None else None)
    return t.with_(domain=None if domain == Domain() else domain)


def _carry_shift(owner: TensorVal, result, method: str, args):
    """Keep a slice's shift mark through ops that keep its axis: same-rank ops, unsqueeze/squeeze after it,
    and narrow(dim, 0 | 1, ...), which is a shift of its own."""
    if not isinstance(result, TensorVal) or result.shift is not None:
        return result
    if method == "narrow" and len(args) >= 2 and ops.as_int(args[0]) is not None and owner.shape and not owner.shape.variadic:
        axis = normalize_dim(ops.as_int(args[0]), len(owner.shape.dims))
        start = ops.as_int(args[1])
        if axis is not None and start in (0, 1):
            return result.with_(shift=(axis, "drop_last" if start == 0 else "drop_first"))
        return result
    if owner.shift is None or owner.shape is None or result.shape is None:
        return result
    axis, kind = owner.shift
    before, after = len(owner.shape.dims), len(result.shape.dims)
    if after == before and method not in ("permute", "transpose", "t", "view", "reshape", "flatten"):
        return result.with_(shift=owner.shift)
    if method in ("unsqueeze", "squeeze") and args and ops.as_int(args[0]) is not None:
        d = ops.as_int(args[0])
        d = d % (max(before, after)) if d < 0 else d
        if d > axis:
            return result.with_(shift=owner.shift)
    return result


def _bound_keys(target):
    """Environment keys a target binds: `x`, `self.x`, each name of a tuple."""
    if isinstance(target, ast.Attribute) and isinstance(target.value, ast.Name):
        return [f"{target.value.id}.{target.attr}"]
    if isinstance(target, ast.Name):
        return [target.id]
    if isinstance(target, (ast.Tuple, ast.List)):
        return [k for e in target.elts for k in _bound_keys(e)]
    if isinstance(target, ast.Starred):
        return _bound_keys(target.value)
    return []


def _read_keys(node):
    for n in ast.walk(node):
        if isinstance(n, ast.Name):
            yield n.id
        elif isinstance(n, ast.Attribute) and isinstance(n.value, ast.Name):
            yield f"{n.value.id}.{n.attr}"


def _carry(a, b, result):
    """Keep the GL006 mark through ops that keep the marked tensor's shape."""
    marked = a if isinstance(a, TensorVal) and a.kept_singleton is not None else (
        b if isinstance(b, TensorVal) and b.kept_singleton is not None else None)
    if marked is None or not isinstance(result, TensorVal) or result.shape is None or marked.shape is None:
        return result
    if result.shape == marked.shape:
        return result.with_(kept_singleton=marked.kept_singleton, kept_at=marked.kept_at)
    return result


def _where(args, line: int):
    """torch.where(c, a, b); where(c, ids, -100) puts padding into ids, where(c, ids, 0) takes it out."""
    from ..dims import broadcast

    tensors = [a for a in args[1:] if isinstance(a, TensorVal)]
    if not tensors:
        return None
    shape = args[0].shape if isinstance(args[0], TensorVal) else None
    for t in tensors:
        shape = broadcast(shape, t.shape)
    dtypes = {t.dtype for t in tensors}
    result = TensorVal(shape, dtypes.pop() if len(dtypes) == 1 and len(tensors) == 2 else None)
    if len(tensors) == 1:
        kept = tensors[0]
        other = args[2] if args[1] is kept else args[1]
        if ops.as_int(other) is not None:
            result = result.with_(dtype=kept.dtype, domain=kept.domain)
            result = result if _negative(other) is not None else value_ranges.masked(result)
            return _with_sentinel(result, _negative(other), line)
    return result


def _is_float(t: TensorVal) -> bool:
    return t.dtype is not None and t.dtype in ops.FLOAT_DTYPES


_BINOPS = {ast.Add: "+", ast.Sub: "-", ast.Mult: "*", ast.Div: "/", ast.FloorDiv: "//", ast.Mod: "%",
           ast.Pow: "**", ast.BitAnd: "&", ast.BitOr: "|", ast.BitXor: "^"}
_UNKNOWN_TENSORISH = None
_UNKNOWN_ARITY = Literal("<*args of unknown length>")  # poisons size arguments: no shape comes out
_UNKNOWN_BOUND = Literal("<unknown slice bound>")
_UNKNOWN_KWARGS = "**"  # a **spread of unknown keys: no parameter binding is certain


def _has_call(node) -> bool:
    return any(isinstance(n, ast.Call) for n in ast.walk(node))


def _dim_arith(a, b, symbol):
    va, vb = value(a), value(b)
    if va is not None and vb is not None:
        try:
            result = {"+": va + vb, "-": va - vb, "*": va * vb, "//": va // vb if vb else None, "%": va % vb if vb else None}.get(symbol)
        except TypeError:
            result = None
        return DimVal(result) if isinstance(result, int) else None
    return _named_arith(a, b, symbol)


def _named_arith(a, b, symbol):
    """B * T and T - 1 with a named B or T: the names ops give their results (see symbolic.py)."""
    if symbol == "*" and a is not None and b is not None:
        d = symbolic.product([a, b])
        return DimVal(d) if d is not None else None
    if symbol == "-" and isinstance(a, Sym) and isinstance(value(b), int) and not isinstance(b, Sym):
        d = symbolic.minus(a, value(b))
        return DimVal(d) if d is not None else None
    return None


def _named(dim, name: str):
    """`D = x.size(-1)`: keep the dim's identity, remember the variable that holds it."""
    if isinstance(dim, Sym):
        return Sym(dim.name, expr=dim.expr or name, size=dim.size)
    return dim


def _merge(result, shape: Optional[Shape], origin: str, dtype: Optional[str] = None):
    """Combine an inferred value with a written shape: names from the text, sizes from the code."""
    if shape is None:
        return result
    if result is not None and not isinstance(result, TensorVal):
        return result
    base = result or TensorVal()
    inferred = base.shape
    if inferred is None:
        return base.with_(shape=shape, origin=origin, dtype=dtype or base.dtype)
    if inferred.variadic or shape.variadic or len(inferred.dims) != len(shape.dims):
        return base  # the code disagrees with the comment: trust the code
    dims = []
    for written, seen in zip(shape.dims, inferred.dims):
        seen_value = value(seen)
        if written is None:
            dims.append(seen)
        elif isinstance(written, int):
            if seen_value is not None and seen_value != written:
                return base
            dims.append(written)
        elif seen_value is not None:
            dims.append(Sym(written.name, expr=(seen.expr if isinstance(seen, Sym) else None), size=seen_value))
        elif isinstance(seen, Sym):
            dims.append(seen)  # keep the code's own name: it ties to other tensors in scope
        else:
            dims.append(written)
    return base.with_(shape=Shape(tuple(dims)), origin=origin, dtype=dtype or base.dtype)


def _join_env(a: Dict[str, object], b: Dict[str, object]) -> Dict[str, object]:
    return {k: join(a.get(k), b.get(k)) for k in set(a) | set(b)}


def _row_of(iterable, node):
    """`for row in x` gives x's rows; zip() of tensors gives a tuple of rows."""
    if isinstance(iterable, TensorVal):
        s = iterable.shape
        if s is not None and not s.variadic and s.dims:
            return TensorVal(Shape(s.dims[1:]), iterable.dtype, iterable.domain)
        return TensorVal(None, iterable.dtype, iterable.domain) if iterable.domain else None
    if isinstance(iterable, SeqVal) and isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
        if node.func.id == "zip":
            return SeqVal(tuple(_row_of(i, None) for i in iterable.items))
        if node.func.id == "enumerate":
            return SeqVal((None, _row_of(iterable.items[1], None)))
    return None


def _shape_owner(node) -> Optional[str]:
    if isinstance(node, ast.Attribute) and node.attr == "shape" and isinstance(node.value, ast.Name):
        return node.value.id
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "size" \
            and not node.args and isinstance(node.func.value, ast.Name):
        return node.func.value.id
    return None


def _single_param_lines(params) -> set:
    lines: Dict[int, List[str]] = {}
    for p in params:
        lines.setdefault(p.lineno, []).append(p.arg)
    return {names[0] for names in lines.values() if len(names) == 1}


def _is_int_param(param) -> bool:
    return isinstance(param.annotation, ast.Name) and param.annotation.id == "int"


def _last_name(node) -> Optional[str]:
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        return node.attr
    return None


def _torchtyping(items) -> Optional[Shape]:
    tokens = []
    for item in items:
        if isinstance(item, ast.Constant) and isinstance(item.value, str):
            tokens.append(item.value.split(":")[0].strip() or "_")
        elif isinstance(item, ast.Constant) and isinstance(item.value, int):
            tokens.append(str(item.value))
        elif isinstance(item, ast.Constant) and item.value is Ellipsis:
            tokens.append("...")
        elif isinstance(item, ast.Slice) and isinstance(item.lower, ast.Constant):
            tokens.append(str(item.lower.value))
        elif _last_name(item) in ops.DTYPE_NAMES or _last_name(item) in ("float", "int", "bool"):
            continue
        else:
            return None
    if not tokens:
        return None
    return parse_jaxtyping(" ".join(tokens))


def _torchtyping_dtype(items) -> Optional[str]:
    for item in items:
        name = _last_name(item)
        if isinstance(item, ast.Attribute) and name in ops.DTYPE_NAMES:
            return ops.DTYPE_NAMES[name]
    return None


def _dtype_kw(kwargs) -> Optional[str]:
    v = kwargs.get("dtype")
    if isinstance(v, Literal) and isinstance(v.value, str) and v.value.startswith("dtype:"):
        return v.value[6:]
    return None


def _size_args(args, kwargs) -> Optional[Shape]:
    """torch.zeros(2, 3), zeros((2, 3)), zeros(size=x.shape); zeros(n, d) with untracked n, d is still 2-d."""
    sizes = kwargs.get("size")
    if sizes is None:
        if len(args) == 1 and not isinstance(args[0], (SeqVal, DimVal)):
            return None  # a single untracked argument may be a whole tuple of sizes
        sizes = args[0] if len(args) == 1 and isinstance(args[0], SeqVal) else SeqVal(tuple(args))
    if not isinstance(sizes, SeqVal) or any(isinstance(v, (SeqVal, TensorVal, ops.Repeated)) or v is _UNKNOWN_ARITY
                                            or (isinstance(v, Literal)) for v in sizes.items):
        return None
    return Shape(tuple(v.dim if isinstance(v, DimVal) else None for v in sizes.items))


def _construct(func: str, args: list, kwargs: dict, node: ast.Call):
    dtype = _dtype_kw(kwargs)
    unknown_dtype = "dtype" in kwargs and dtype is None
    if func in ("randn", "rand", "zeros", "ones", "empty", "FloatTensor"):
        default = None if unknown_dtype else (dtype or ("float32" if func != "LongTensor" else "int64"))
        return TensorVal(_size_args(args, kwargs), default, origin="constructor",
                         filled=func if func in ("zeros", "empty") else None)
    if func == "full":
        fill = args[1] if len(args) > 1 else kwargs.get("fill_value")
        guess = "int64" if isinstance(fill, DimVal) else ("float32" if isinstance(fill, Literal) and isinstance(fill.value, float) else None)
        shape = _size_args(args[:1], {}) if args else None
        return TensorVal(shape, None if unknown_dtype else (dtype or guess), origin="constructor")
    if func == "randint":
        ints = [a for a in args if isinstance(a, DimVal)]
        size = kwargs.get("size") or next((a for a in args if isinstance(a, SeqVal)), None)
        high = kwargs.get("high", ints[1] if len(ints) >= 2 else (ints[0] if ints else None))
        low = ints[0] if len(ints) >= 2 else DimVal(0)
        shape = _size_args([size], {}) if isinstance(size, SeqVal) else None
        domain = None
        if isinstance(high, DimVal) and high.dim is not None and value(low.dim) == 0:
            domain = Domain(high.dim, origin=f"randint() values in [0, {high.dim})", repeats=True)
        return TensorVal(shape, None if unknown_dtype else (dtype or "int64"), domain, origin="constructor")
    if func == "randperm":
        n = args[0] if args else None
        shape = Shape((n.dim,)) if isinstance(n, DimVal) else None
        return TensorVal(shape, None if unknown_dtype else (dtype or "int64"), origin="constructor")
    if func == "arange":
        ints = [a for a in args if isinstance(a, DimVal)]
        floats = [a for a in args if isinstance(a, Literal) and isinstance(a.value, float)]
        length = None
        if len(args) == 1 and ints:
            length = ints[0].dim
        elif len(args) == 2 and len(ints) == 2 and value(ints[0].dim) is not None and value(ints[1].dim) is not None:
            length = max(0, value(ints[1].dim) - value(ints[0].dim))
        guess = "float32" if floats else ("int64" if len(ints) == len(args) and args else None)
        return TensorVal(Shape((length,)) if args and len(args) <= 2 else None, None if unknown_dtype else (dtype or guess), origin="constructor")
    if func in ("tensor", "as_tensor", "LongTensor") and node.args:
        shape, guess = _literal_shape(node.args[0])
        if func == "LongTensor":
            guess = "int64" if shape is not None else None
        made = TensorVal(shape, None if unknown_dtype else (dtype or guess), origin="constructor")
        if shape is not None and guess == "int64":
            negatives = [v for v in _literal_ints(node.args[0]) if v < 0]
            if negatives:
                return _with_sentinel(made, min(negatives), node.lineno)
        return made
    return None


def _literal_ints(node):
    for n in ast.walk(node):
        if isinstance(n, ast.UnaryOp) and isinstance(n.op, ast.USub) and isinstance(n.operand, ast.Constant) \
                and isinstance(n.operand.value, int) and not isinstance(n.operand.value, bool):
            yield -n.operand.value


def _literal_shape(node):
    """Shape and dtype of a nested list literal: `[[1, 2], [3, 4]]` is [2, 2] int64."""
    if isinstance(node, (ast.List, ast.Tuple)):
        if not node.elts:
            return Shape((0,)), "float32"
        inner = [_literal_shape(e) for e in node.elts]
        shapes = {s for s, _ in inner}
        dtypes = {d for _, d in inner}
        if len(shapes) != 1 or None in shapes:
            return None, None
        sub = next(iter(shapes))
        dtype = "float32" if "float32" in dtypes else ("int64" if dtypes == {"int64"} else ("bool" if dtypes == {"bool"} else None))
        return Shape((len(node.elts),) + sub.dims), dtype
    if isinstance(node, ast.Constant):
        if isinstance(node.value, bool):
            return Shape(()), "bool"
        if isinstance(node.value, int):
            return Shape(()), "int64"
        if isinstance(node.value, float):
            return Shape(()), "float32"
    if isinstance(node, ast.UnaryOp) and isinstance(node.operand, ast.Constant):
        return _literal_shape(node.operand)
    return None, None


def _rearrange(t: TensorVal, pattern: str, kwargs: dict):
    """einops `rearrange` with a known input shape: "b n d -> (b n) d"."""
    if "->" not in pattern or t.shape is None or t.shape.variadic:
        return TensorVal(None, t.dtype)
    left, right = (side.strip() for side in pattern.split("->", 1))
    lhs = _einops_groups(left)
    rhs = _einops_groups(right)
    if lhs is None or rhs is None or len(lhs) != len(t.shape.dims):
        return TensorVal(None, t.dtype)
    sizes: Dict[str, object] = {}
    for group, d in zip(lhs, t.shape.dims):
        if len(group) == 1:
            sizes[group[0]] = d
        else:
            known = {name: kwargs[name].dim for name in group if isinstance(kwargs.get(name), DimVal)}
            for name in group:
                sizes[name] = known.get(name)
    dims = []
    for group in rhs:
        if len(group) == 1 and group[0].isdigit():
            dims.append(int(group[0]))
        elif len(group) == 1:
            dims.append(sizes.get(group[0]))
        else:
            dims.append(symbolic.product(sizes.get(n) for n in group))
    return TensorVal(Shape(tuple(dims)), t.dtype, t.domain)


def _einops_groups(side: str):
    groups, current, inside = [], [], False
    for token in side.replace("(", " ( ").replace(")", " ) ").split():
        if token == "(":
            inside, current = True, []
        elif token == ")":
            groups.append(current)
            inside = False
        elif token == "...":
            return None
        elif inside:
            current.append(token)
        else:
            groups.append([token])
    return groups
