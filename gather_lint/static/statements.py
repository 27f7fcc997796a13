"""Statements: assignment, unpacking, branches joined, loops forgotten, imports, returns."""
from __future__ import annotations

import ast
from dataclasses import replace
from contextlib import contextmanager
from itertools import compress
from operator import is_not
from typing import Dict, Iterator, List, Optional

from . import assert_facts, autograd_ctx, numpy_values, branches, closure_facts, dict_items, fitted_instances, sequences
from . import advanced_index_sites, advanced_indexing, config, data_loaders, group_overwrites, index_values, loop_facts, tensor_lists, top_p_guards, tree_walk, value_ranges, written_rows
from . import buffer_writes, cut_rows, mask_bounds, first_iteration, index_copies, index_put_dtypes, list_lengths, left_padding, present_values, run_starts, shape_unpacking
from . import permutation_order, stacked_parts
from . import tensor_ops as ops
from ..dims import Shape, Sym, value
from .interp_helpers import STMT_VISITS, UNKNOWN, _BINOPS, _merge, _negative, _row_of, _with_sentinel, visit_method
from .python_types import ListVal
from .values import DimVal, Literal, QualName, SeqVal, TensorVal, join


class StatementMixin:
    """Statements: assignment, unpacking, branches joined, loops forgotten, imports, returns."""

    # ----- statements ---------------------------------------------------------------------------
    def stmt(self, node: ast.stmt) -> Optional[bool]:
        """Run one statement; True when it leaves the block on every path it can take (stmt_If says so)."""
        method = STMT_VISITS.get((self.__class__, node.__class__), UNKNOWN)
        if method is UNKNOWN:
            method = visit_method(STMT_VISITS, self.__class__, node.__class__, "stmt_")
        leaves = None
        if method is not None:
            leaves = method(self, node)
        else:
            for child in ast.iter_child_nodes(node):
                if isinstance(child, ast.expr):
                    self.expr(child)
        self._pragmas_on(node)
        return leaves

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
        if self.in_function:
            closure_facts.defined(self, node)  # what it reads from this function; calls of it here run it
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
        result = self.expr(node.value)
        index_copies.check_method(self, node)  # GL031: x[ids].zero_() changes a copy
        autograd_ctx.note_saved(self, node.value)  # ctx.save_for_backward(idx): ctx.saved_tensors from here on
        self._reshape_in_place(node.value, result)  # probs.squeeze_(1): probs is [N, V] from here on
        fitted_instances.after_statement(self, node)  # evaluator.fit(feats, labels): the fitted instance
        changed = present_values.changed_in_place(node.value)
        if changed is not None and changed in self.env:  # x.clamp_(max=n - 1): what x was known to hold may be gone
            self.env[changed] = present_values.forgotten(self.env[changed], in_place=True)
            if present_values.placeholder_fill(node.value):
                self.env[changed] = present_values.without_fill(self.env[changed])

    def _reshape_in_place(self, call, result) -> None:
        """`x.squeeze_(1)`, `x.unsqueeze_(0)`, `x.t_()`, `x.transpose_(0, 1)` change x's shape, and return x:
        x is bound to the result. `x.resize_(...)` and the like leave a shape the analysis does not follow."""
        if not (isinstance(call, ast.Call) and isinstance(call.func, ast.Attribute)) or call.func.attr not in _RESHAPING:
            return
        keys = list(_bound_keys(call.func.value))
        if len(keys) != 1 or not isinstance(self.env.get(keys[0]), TensorVal):
            return
        if isinstance(result, TensorVal) and call.func.attr in _FOLLOWED_RESHAPES:
            self.env[keys[0]] = result
        else:
            self.env[keys[0]] = self.env[keys[0]].with_(shape=None)

    def stmt_Assign(self, node: ast.Assign) -> None:
        result = self.expr(node.value)
        if len(node.targets) == 1 and isinstance(node.targets[0], ast.Subscript):
            self._check_subscript_rmw(node, node.targets[0])
            group_overwrites.check_mask_write(self, node, node.targets[0])  # GL013: out[mask] = v per group
            top_p_guards.check(self, node, node.targets[0])  # GL021: remove[0] = False on a batched top-p mask
            self._check_overwriting_assign(node, node.targets[0], result)
            index_put_dtypes.check(self, node, node.targets[0], result)  # GL016: x[idx] = v of another dtype
            index_copies.check_write(self, node, node.targets[0])  # GL031: x[mask][k] = v writes into a copy
            permutation_order.check_mask_write(self, node, node.targets[0])  # GL034: x[sorted-order mask] = v
        self._note_read(node)
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
        # most functions hold no informal value: no walk of the expression then
        return node is not None and bool(self.informal) and any(key in self.informal for key in _read_keys(node))

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
                symbol = _BINOPS.get(type(node.op))
                made = sequences.concat(left, right, symbol)
                if made is None and symbol in ("+", "*"):  # ids += [pad] * (n - len(ids)): as `ids = ids + [...]`
                    spelled = ast.BinOp(left=ast.Name(id=node.target.id, ctx=ast.Load()), op=node.op, right=node.value)
                    made = list_lengths.concat(self, spelled, left, right, symbol)
                self.env[node.target.id] = made
        else:
            self.expr(node.target)
            index_copies.check_write(self, node, node.target)  # GL031: x[mask][k] *= v scales a copy
            if isinstance(node.target, ast.Subscript) and isinstance(node.target.value, ast.Name) \
                    and isinstance(self.env.get(node.target.value.id), (TensorVal, type(None))):
                cut_rows.check_write(self, node.target, node.value, _BINOPS.get(type(node.op), "?"))  # out[idx] += f(x[idx[:k]])
            if isinstance(node.target, ast.Subscript) and isinstance(node.op, (ast.Add, ast.Sub)):
                self._check_overwrite(node, right)
            owner = node.target.value.id if isinstance(node.target, ast.Subscript) \
                and isinstance(node.target.value, ast.Name) else None
            if owner is not None and isinstance(self.env.get(owner), TensorVal):  # pc[:, :2] *= s: the values moved
                self.env[owner] = present_values.forgotten(self.env[owner], in_place=True)

    def stmt_If(self, node: ast.If) -> bool:
        """Whether the `if` leaves the block on every path it can take (`if x.dim() != 4: raise` with x 5-d:
        the rest cannot run with these facts)."""
        certain = branches.truth(self.expr(node.test))
        armed = self.two_armed_ifs
        if node.orelse:  # where an `if` with two arms starts (subscript_rank): either arm, decided or not
            self.two_armed_ifs = armed + (node.lineno,)
        try:
            return self._if_arms(node, certain)
        finally:
            self.two_armed_ifs = armed

    def _if_arms(self, node: ast.If, certain) -> bool:
        if certain is not None:  # the other branch cannot run: do not check it with these facts
            return self.block(node.body if certain else node.orelse)
        before = dict(self.env)
        ruled_out_in_body, ruled_out_else = self._ruled_out(node.test)
        chosen_by_caller = bool(self.call_depth) and _tests_a_parameter(node.test, self.params)  # read only then
        self.undecided_branches += 1
        self.parameter_branches += chosen_by_caller
        muted = _mode_branch(node.test, self.params) if self.call_depth else None
        try:
            self._without_values(ruled_out_in_body)
            with quietly(self, muted is True):
                left_exits = self.block(node.body)
            after_body = self.env
            self.env = dict(before)
            self._without_values(ruled_out_else)
            with quietly(self, muted is False):
                right_exits = self.block(node.orelse)
        finally:
            self.undecided_branches -= 1
            self.parameter_branches -= chosen_by_caller
        if left_exits and right_exits:
            return True
        if left_exits:
            return False
        if right_exits:
            self.env = after_body
            return False
        self.env = _join_env(after_body, self.env)
        return False

    def _ruled_out(self, test: ast.expr) -> tuple:
        """What each arm of `if test:` rules out, as (in-body, in-else) tuples of (name, kind, number):
        `if not (ids == pad).any():` runs its body with no pad among the ids ("value"), and `if has_pad.any(): raise`
        its other path; `if step < table.shape[0]:` runs its body with the step below that size ("below")."""
        below = self._tested_below(test)
        if below is not None:
            return (below,), ()
        negated = isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not)
        inner = test.operand if negated else test
        if not (isinstance(inner, ast.Call) and isinstance(inner.func, ast.Attribute) and inner.func.attr == "any"
                and not inner.args and not inner.keywords and isinstance(inner.func.value, (ast.Name, ast.Attribute))):
            return (), ()
        gone = tuple((name, "value", number) for name, number in mask_bounds.absent(self.expr(inner)))
        return (gone, ()) if negated else ((), gone)

    def _tested_below(self, test: ast.expr):
        """`x < n` / `x <= n` / `n > x` of a name whose values have a known bound and a known int n."""
        if not (isinstance(test, ast.Compare) and len(test.ops) == 1):
            return None
        op, left, right = test.ops[0], test.left, test.comparators[0]
        if isinstance(op, (ast.Gt, ast.GtE)):
            left, right = right, left
        elif not isinstance(op, (ast.Lt, ast.LtE)):
            return None
        held = self.env.get(left.id) if isinstance(left, ast.Name) else None
        if not isinstance(held, TensorVal) or held.domain is None or not isinstance(value(held.domain.size), int):
            return None
        n = ops.as_int(self.expr(right))
        if n is None:
            return None
        return left.id, "below", n + 1 if isinstance(op, (ast.LtE, ast.GtE)) else n

    def _without_values(self, ruled_out: tuple) -> None:
        """A padding value a guard rules out is not among the named tensor's values on that path, and a bound it
        tests caps them there."""
        for name, kind, number in ruled_out:
            held = self.env.get(name)
            if not isinstance(held, TensorVal) or held.domain is None:
                continue
            if kind == "value" and held.domain.sentinel == number:
                self.env[name] = _with_sentinel(held, None, None)
            elif kind == "below" and isinstance(value(held.domain.size), int) and value(held.domain.size) > number:
                self.env[name] = held.with_(domain=replace(held.domain, size=number))

    def stmt_For(self, node) -> None:
        self.writing_loops = self.writing_loops + (node,)  # written_windows: x[:, prev:cur] before x[:, cur] = v
        try:
            self._for(node)
        finally:
            self.writing_loops = self.writing_loops[:-1]

    def _for(self, node) -> None:
        rounds = _rounds(self, node)
        if rounds is not None:  # `for _ in range(3):` with a plain body: each round run in turn, as Python does
            for item in rounds:  # (_rounds takes no loop with an else)
                self.assign(node.target, item)
                self.block(node.body)
            return
        iterable = data_loaders.as_items(self.expr(node.iter))  # a TensorDataset: its rows
        start = dict(self.env)
        first_iteration.run(self, node, _row_of(iterable, node.iter))  # x = step(x): checked with x before the loop
        entry = dict(self.env)
        entry = {k: entry.get(k) for k in self._forget(node, node.body + node.orelse)}  # what the loop reassigns
        self.env.update(loop_facts.invariant(self, node, entry, _row_of(iterable, node.iter)))  # h = layer(h)
        self.assign(node.target, _row_of(iterable, node.iter))
        rounds = self._iteration_count(node, iterable)  # as a comprehension's loop counts them
        before = dict(self.env)
        self.block(node.body)
        appended = loop_facts.counted_appends(node, start, self.env, rounds) if rounds is not None else {}
        self.env = _join_env(before, self.env)
        self.env.update(appended)  # rows.append(y) once per round of a known count: that many rows
        self.block(node.orelse)

    stmt_AsyncFor = stmt_For

    def stmt_While(self, node: ast.While) -> None:
        first_iteration.run(self, node, None)  # while ...: x = step(x), checked with x before the loop
        entry = dict(self.env)
        entry = {k: entry.get(k) for k in self._forget(node, node.body + node.orelse)}
        self.env.update(loop_facts.invariant(self, node, entry, None))  # while ...: h = cell(x, h)
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
        self._forget(node, node.body)
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
        self._forget(node, [c for case in node.cases for c in case.body])
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
        fitted = fitted_instances.returned(self, node)  # `return self` after storing attributes
        self.returns.append(fitted if fitted is not None else (
            self.expr(node.value) if node.value is not None else Literal(None)))

    def stmt_Delete(self, node: ast.Delete) -> None:
        for target in node.targets:
            if isinstance(target, ast.Name):
                self.env.pop(target.id, None)
            elif isinstance(target, ast.Subscript) and isinstance(target.value, ast.Name):
                self.env[target.value.id] = None  # `del rows[0]`: the list (or dict) holds other items now

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
            fitted_instances.assigned(self, target, result)  # req.output_ids = [...]: what req's methods read
        elif isinstance(target, ast.Subscript) and (name := tree_walk.env_key(target.value)) is not None:
            # `x[...] = v`, and `self.x[...] = v` on an attribute
            self.expr(target.value)
            key = self.expr(target.slice)
            owner = self.env.get(name)
            index_values.check(self, target, owner, key)  # table[ids] = v with padding or too-large ids
            advanced_index_sites.check(self, target, owner, key)  # GL008 x[float_key] = v, GL017
            if isinstance(owner, TensorVal):  # GL017: out[:, picks] = v, one pick per row; out[range(B), a] = v as arange
                advanced_indexing.check(self, target, owner, self._ranges_as_positions(target.slice, key))
            advanced_index_sites.check_written_shape(self, target, owner, key, result, getattr(self, "_last_value_node", None))
            if owner is None or isinstance(owner, TensorVal):  # not a dict or list written by key
                cut_rows.check_write(self, target, getattr(self, "_last_value_node", None))  # out[idx] = f(x[idx[:k]])
            if isinstance(owner, SeqVal):  # shape[0] = n
                self.env[name] = sequences.set_item(owner, self.expr(target.slice), result)
            if isinstance(owner, config.DictVal):
                self.env[name] = dict_items.written(owner, key, result)  # out["logits"] = x
            if isinstance(owner, TensorVal) and self._writes_over_fill(target, owner, result):
                owner = self.env[name] = present_values.without_fill(owner)  # x[x == 255] = 0: no entry holds 255 any more
            if isinstance(owner, TensorVal) and isinstance(result, DimVal):
                # labels[labels == pad] = -100 puts padding in; = 0 takes it out
                owner = present_values.forgotten(owner, in_place=True)  # x[x > m] = m: the largest value may be gone
                self.env[name] = _with_sentinel(owner, _negative(result), target.lineno)
                if ops.as_int(result) is not None and ops.as_int(result) > 0:
                    self.env[name] = value_ranges.written(self.env[name], ops.as_int(result), target.lineno)
            elif isinstance(owner, TensorVal) and _writes_by_positions(key, target.slice):
                # inv[perm] = arange(n): positions from a tensor may cover every padded slot
                self.env[name] = _with_sentinel(owner, None, None)
            elif isinstance(owner, TensorVal) and self.mask_covers_sentinel(target.slice, target.value, owner):
                # x[x == -1] = torch.tensor(n): every padded entry is written over
                self.env[name] = _with_sentinel(owner, None, None)
            if isinstance(owner, TensorVal):  # ids[i, width - len(s):] = s: padding first (GL024)
                self.env[name] = left_padding.written(self.env[name], target, key)
                if not isinstance(result, DimVal) or self.env[name].entries is not None:
                    # a tensor written in (`ids[1] = t`), or a mask's entries set: what was known of them may be gone
                    self.env[name] = present_values.forgotten(self.env[name], in_place=True)
                self.env[name] = run_starts.written(self.env[name], key, result)  # first[1:] = x[1:] != x[:-1]
                self.env[name] = buffer_writes.written(owner, self.env[name], result, target.lineno)  # ids into zeros
        else:
            self.expr(target)  # x[i] = v: evaluate for nested sites, bind nothing

    def _writes_over_fill(self, target: ast.Subscript, owner: TensorVal, result) -> bool:
        """`x[x == c] = v` (or `x[~(x != c)] = v`) of an x known to hold c, v another value: every entry that
        held c is written over, as `x.masked_fill(x == c, v)` does."""
        return ops.as_int(result) != present_values.fill_value(owner) and self.mask_covers_fill(target.slice, target.value, owner)

    def _unpack(self, target, result) -> None:
        elts = target.elts
        self._documented_rank_refuted(target, result)
        if self._documented_rows_refuted(target, result):
            result = None
        result = _named_sizes(result, elts)
        if isinstance(result, SeqVal) and len(result.items) == len(elts) and not any(isinstance(e, ast.Starred) for e in elts):
            for element, item in zip(elts, result.items):
                self.assign(element, item)
            return
        stars = [k for k, e in enumerate(elts) if isinstance(e, ast.Starred)]
        if isinstance(result, TensorVal) and not stars and (parts := stacked_parts.rows(result, len(elts))) is not None:
            for element, part in zip(elts, parts):  # src, dst = torch.stack([src_ids, dst_ids]): each its range
                self.assign(element, part)
            return
        if isinstance(result, TensorVal) and not stars:  # row, col = edge_index: rows of dim 0
            rows = ops.rows(result, len(elts))
            if isinstance(rows, ops.Repeated) and result.written is not None:  # a literal's rows: each its own values
                for k, element in enumerate(elts):
                    self.assign(element, written_rows.row(result, DimVal(k), rows.element))
                return
            result = rows
        if isinstance(result, numpy_values.ArrayVal) and not stars and numpy_values.unpacks_into(result, len(elts)):
            item = numpy_values.row(result, DimVal(0))  # user, item, rating = table[i]: numpy scalars of its dtype
            for element in elts:
                self.assign(element, item)
            return
        if isinstance(result, ops.Repeated) and not stars:  # x, y, z = pts.unbind(-1)
            for element, item in zip(elts, result.unpacked(len(elts))):
                self.assign(element, item)
            return
        row = _unpacked_row(result, len(elts)) if not stars else None
        if row is not None:  # src, dst = edge_index: iterating a tensor yields its dim-0 slices
            for element in elts:
                self.assign(element, row)
            return
        if isinstance(result, SeqVal) and len(stars) == 1:
            split = sequences.split_starred(result.items, stars[0], len(elts) - stars[0] - 1)
            if split is not None:  # *batch, n, m = x.shape
                head, middle, tail = split
                for element, item in zip(elts, head + [middle] + tail):
                    self.assign(element.value if isinstance(element, ast.Starred) else element, item)
                return
        shape_unpacking.check(self, target, result, getattr(self, "_last_value_node", None))  # GL001
        for element in elts:
            self.assign(element, None)
        self._shape_unpack(target, result)

    def _documented_rank_refuted(self, target, result) -> None:
        """`B, T, D = x[0].shape` where the shape the analysis holds for x[0] has another rank, and x's shape was
        read from a docstring or a comment: the unpacking states the rank the code runs with, so the
        documentation describes something else (`x` documented as "a tensor of shape (B, T, C)", really a list
        of [B, T, C] tensors). x is forgotten: its documented shape decides nothing further."""
        value_node = getattr(self, "_last_value_node", None)
        if not isinstance(result, SeqVal) or len(result.items) == len(target.elts) \
                or any(isinstance(e, ast.Starred) for e in target.elts):
            return
        base = value_node.value if isinstance(value_node, ast.Attribute) and value_node.attr == "shape" else \
            value_node.func.value if isinstance(value_node, ast.Call) and isinstance(value_node.func, ast.Attribute) \
            and value_node.func.attr == "size" and not value_node.args else None
        while isinstance(base, ast.Subscript):
            base = base.value
        held = self.env.get(base.id) if isinstance(base, ast.Name) else None
        if isinstance(held, TensorVal) and (held.origin or "").startswith(("docstring", "comment")):
            self.env[base.id] = None

    def _documented_rows_refuted(self, target, result) -> bool:
        """`pos, neg = sample` of a `sample` documented as [batch_size, 3]: unpacking by rows needs exactly as
        many rows as names, which a named size is not known to have; the code runs with a pair (a docstring
        describing one of several forms), so the documented shape decides nothing here, nor further on."""
        if not isinstance(result, TensorVal) or not (result.origin or "").startswith(("docstring", "comment")) \
                or result.shape is None or result.shape.variadic or not result.shape.dims \
                or any(isinstance(e, ast.Starred) for e in target.elts) \
                or value(result.shape.dims[0]) == len(target.elts):
            return False
        value_node = getattr(self, "_last_value_node", None)
        if isinstance(value_node, ast.Name) and self.env.get(value_node.id) is result:
            self.env[value_node.id] = None
        return True

    def _shape_unpack(self, target, result) -> None:
        """`B, T, C = x.shape` with x of unknown shape: x has rank 3 and dims B, T, C."""
        value_node = getattr(self, "_last_value_node", None)
        if value_node is None or result is not None:
            return
        owner = shape_unpacking.shape_owner(value_node)
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

    def _forget(self, owner: ast.stmt, body: List[ast.stmt]) -> frozenset:
        """Forget every name the body (of the statement `owner`) assigns; the set of them (a loop may keep
        some, loop_facts.py). Read once per statement of the file: a loop runs again under every caller's facts."""
        module = getattr(self, "module", None)
        cache = module.__dict__.setdefault("_assigned_in", {}) if module is not None else {}
        forgotten = cache.get(id(owner))
        if forgotten is None:
            forgotten = cache[id(owner)] = frozenset(_assigned_keys(body))
        for key in forgotten:
            self.env[key] = None
        return forgotten


_MOST_ROUNDS = 8
_LEAVES = (ast.Break, ast.Continue, ast.Return, ast.Raise, ast.Try, ast.Yield, ast.YieldFrom, ast.With, ast.While,
           ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda)


def _rounds(interp, node) -> Optional[list]:
    """What the target takes in each round of `for k in range(...)` with known bounds, or of `for tok in
    PROMPT` over a list the analysis knows item by item, when the rounds are few (a prompt built per image or
    per token, a handful of crops) and the body runs straight through every round; else None."""
    call = node.iter
    if not isinstance(node.target, ast.Name) or node.orelse:
        return None
    if isinstance(call, ast.Call) and isinstance(call.func, ast.Name) and call.func.id == "range":
        if call.keywords or not 1 <= len(call.args) <= 3 or interp.env.get("range") is not None:
            return None
        bounds = [ops.as_int(interp.expr(a)) for a in call.args]
        if None in bounds or (len(bounds) == 3 and bounds[2] == 0):
            return None
        rounds = range(*bounds)
        if not 0 < len(rounds) <= _MOST_ROUNDS:
            return None  # (counted before any is made: `range(1, int(1e8) // n_envs + 1)` has millions)
        items = [DimVal(k) for k in rounds]
    elif isinstance(call, (ast.Name, ast.List, ast.Tuple)):
        listed = interp.expr(call)
        if type(listed) not in (SeqVal, ListVal) or listed.names or any(item is None for item in listed.items):
            return None
        items = list(listed.items)
    else:
        return None
    if not 0 < len(items) <= _MOST_ROUNDS:
        return None
    if any(isinstance(sub, _LEAVES) for stmt in node.body for sub in tree_walk.all_nodes(stmt)):
        return None
    return items


def _assigned_keys(body: List[ast.stmt]) -> Iterator[str]:
    for node in body:
        for sub in tree_walk.all_nodes(node):
            if isinstance(sub, ast.Name) and isinstance(sub.ctx, ast.Store):
                yield sub.id
            elif isinstance(sub, ast.Attribute) and isinstance(sub.ctx, ast.Store) and isinstance(sub.value, ast.Name):
                yield f"{sub.value.id}.{sub.attr}"
            elif isinstance(sub, ast.AugAssign) and isinstance(sub.target, ast.Name):
                yield sub.target.id


def _writes_by_positions(key, key_node) -> bool:
    """x[k] = v that may overwrite every padded slot: anything but a boolean mask or a bounded slice
    (`out[i, :len(row)] = row`, the padding idiom, leaves the slots past the row's end)."""
    items = key.items if isinstance(key, SeqVal) else (key,)
    if any(isinstance(k, TensorVal) and k.dtype == "bool" for k in items):
        return False
    nodes = key_node.elts if isinstance(key_node, ast.Tuple) else [key_node]
    return not any(isinstance(n, ast.Slice) and (n.lower is not None or n.upper is not None) for n in nodes)


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


def _named(dim, name: str):
    """`D = x.size(-1)`: keep the dim's identity, remember the variable that holds it."""
    if isinstance(dim, Sym):
        return Sym(dim.name, expr=dim.expr or name, size=dim.size)
    return dim


def _join_env(a: Dict[str, object], b: Dict[str, object]) -> Dict[str, object]:
    # a name bound on one path only is unknown after the join; most names are the same object on both
    # paths (the module's imports and constants among them), kept without comparing their fields, and
    # found without a Python step per name: an environment holds every name the scope bound so far, and
    # a long scope joins it at every branch and loop
    joined = dict.fromkeys(b.keys() - a.keys())
    joined.update(a)
    get = b.get
    for k in compress(a.keys(), map(is_not, a.values(), map(get, a.keys()))):
        x, y = a[k], get(k)
        v = join(x, y)
        if v is None and x is not None and y is not None and isinstance(x, _LISTS) and isinstance(y, _LISTS):
            v = tensor_lists.joined(x, y)  # [] on one path, appended tensors on the other
        joined[k] = v
    return joined


_LISTS = (SeqVal, ops.Repeated)


# in-place methods that change the tensor's shape: those whose new shape the analysis follows, and the rest
_FOLLOWED_RESHAPES = frozenset({"squeeze_", "unsqueeze_", "t_", "transpose_", "swapdims_", "swapaxes_"})
_RESHAPING = _FOLLOWED_RESHAPES | {"resize_", "resize_as_", "as_strided_", "set_"}


def _mode_branch(test: ast.expr, params: set) -> Optional[bool]:
    """For `if mode == "one_hot":` (`!=`, `in ("a", "b")`, `not in`) on a parameter whose value this run does not
    know (the caller forwards its own `feature_type`): True when the body is the path of the named modes, False
    when the else is; None for any other test. A helper that encodes ids one way and values another is handed
    one kind with each mode: the caller's tensor tells nothing of the named mode's input unless the caller
    names the mode, so that path's findings under these facts would pair a value with a mode it may never take."""
    if not (isinstance(test, ast.Compare) and len(test.ops) == 1 and isinstance(test.left, ast.Name)
            and test.left.id in params and test.left.id not in ("self", "cls")):
        return None
    op, right = test.ops[0], test.comparators[0]
    if isinstance(op, (ast.Eq, ast.NotEq)) and _text(right):
        return isinstance(op, ast.Eq)
    if isinstance(op, (ast.In, ast.NotIn)) and isinstance(right, (ast.Tuple, ast.List, ast.Set)) and right.elts \
            and all(_text(e) for e in right.elts):
        return isinstance(op, ast.In)
    return None


def _text(node: ast.expr) -> bool:
    return isinstance(node, ast.Constant) and isinstance(node.value, str)


@contextmanager
def quietly(interp, on: bool):
    """Run a block reporting nothing (its calls run quietly too), when `on`."""
    if not on:
        yield
        return
    saved = interp.report, interp.flag, interp.reports
    interp.report, interp.flag, interp.reports = (lambda *a, **k: None), (lambda *a, **k: None), False
    try:
        yield
    finally:
        interp.report, interp.flag, interp.reports = saved


def _tests_a_parameter(test: ast.expr, params: set) -> bool:
    """Whether an `if` test reads a parameter other than self/cls (`if video:`, `if x.ndim == 5:`)."""
    return bool(params) and any(isinstance(n, ast.Name) and n.id in params and n.id not in ("self", "cls")
                                for n in ast.walk(test))


def _named_sizes(result, elts):
    """`nz, ny, nx = self.grid` where only a comment `# (nz, ny, nx)` shaped `self.grid`: the comment listed
    the sizes the tuple holds, by the names they are unpacked into, not the dims of a tensor."""
    if not isinstance(result, TensorVal) or not str(result.origin or "").startswith("comment") or \
            result.shape is None or result.shape.variadic or len(result.shape.dims) != len(elts):
        return result
    if not all(isinstance(e, ast.Name) and isinstance(d, Sym) and d.name == e.id for e, d in zip(elts, result.shape.dims)):
        return result
    return SeqVal(tuple(DimVal(d) for d in result.shape.dims))


def _unpacked_row(result, count: int):
    """The slice each name gets from `a, b = t` (t of known rank >= 1, dim 0 not known to differ from
    the number of names), else None."""
    if not isinstance(result, TensorVal) or result.shape is None or result.shape.variadic or not result.shape.dims:
        return None
    first = value(result.shape.dims[0])
    if first is not None and first != count:
        return None  # Python raises: too many or too few values to unpack
    return TensorVal(Shape(result.shape.dims[1:]), result.dtype, result.domain)
