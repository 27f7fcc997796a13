"""Dataflow rules checked while interpreting: overwriting writes (GL013), padding lookups (GL011), kept singletons (GL006)."""
from __future__ import annotations

import ast
from dataclasses import replace

from . import advanced_indexing, broadcast_mismatch, broadcast_rows, dropped_dims, head_columns, loss_columns, loss_targets, inferred_widths, one_hot_pick, pairwise_terms, passed_columns, squeezed_picks
from ..dims import must_equal, value
from ..rules import gl006_missing_squeeze as missing_squeeze
from ..rules import gl011_index_out_of_range as oob
from ..rules import gl013_overwriting_accumulate as overwrite
from ..suggest import method_call
from .last_assignment import last_assigned
from .names import compared_token_ids, edge_list_domain
from .repeated_indices import maybe_mask, named_only, one_entry_per_line, rows_hold_once
from .tree_walk import all_nodes, called_name, own_nodes
from .values import QualName, SeqVal, TensorVal


_ACCUMULATING_METHODS = frozenset({"add", "sub", "mul", "div", "true_divide", "add_", "sub_", "mul_", "div_"})


def _accumulates(value_node, read) -> bool:
    """Whether `x[I] = value` builds on the old value the way an update meant once per occurrence of a position
    does: the old value enters with its own sign (`x[I] + v`, `x[I] - v`, `x[I] * w`, `x[I].add(v)`, such a
    term inside a where or a clamp, or any other function of it). Entering only with its sign flipped
    (`255 - x[I]`, `-x[I]`, `1 - x[I] / 255`), it is reflected: each write to a repeated position carries the
    same value, computed from the same read, and the one write torch keeps is the one meant."""
    def is_read(n) -> bool:
        return isinstance(n, ast.Subscript) and (ast.dump(n.value), ast.dump(n.slice)) == read

    def signs(n, positive: bool):
        """The signs with which the reads inside the arithmetic at n enter it."""
        if is_read(n):
            yield positive
        elif isinstance(n, ast.BinOp) and isinstance(n.op, (ast.Add, ast.Mult)):
            yield from signs(n.left, positive)
            yield from signs(n.right, positive)
        elif isinstance(n, ast.BinOp) and isinstance(n.op, ast.Sub):
            yield from signs(n.left, positive)
            yield from signs(n.right, not positive)
        elif isinstance(n, ast.BinOp) and isinstance(n.op, (ast.Div, ast.FloorDiv)):
            yield from signs(n.left, positive)
        elif isinstance(n, ast.UnaryOp) and isinstance(n.op, ast.USub):
            yield from signs(n.operand, not positive)
        elif isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute) and n.func.attr in _ACCUMULATING_METHODS:
            yield from signs(n.func.value, positive)
        elif any(is_read(m) for m in ast.walk(n)):
            yield True  # inside another function of it (`torch.where(m, x[I] + 1, x[I])`): taken as building on it

    return any(signs(value_node, True))


class DataflowCheckMixin:
    """Dataflow rules checked while interpreting: overwriting writes (GL013), padding lookups (GL011), kept singletons (GL006)."""

    def _check_subscript_rmw(self, node: ast.Assign, target: ast.Subscript) -> None:
        """x[I] = f(x[I]): the read and the write are the same positions, so repeated I is lost."""
        if not isinstance(self.expr(target.value), TensorVal):
            return  # dicts and lists are written by key, not by tensor index
        text = ast.dump(target.value), ast.dump(target.slice)
        reads = any(isinstance(n, ast.Subscript) and (ast.dump(n.value), ast.dump(n.slice)) == text
                    for n in ast.walk(node.value))
        key = _leading_index(target.slice)  # `x[ids, :]` writes whole rows at ids, as `x[ids]` does
        index = self.expr(key) if reads and key is not None else None
        # (`v[target] = v[target] + dv` of a singular name: one value, or a boolean mask, which picks each position once)
        if _can_repeat(index) and not maybe_mask(index) and not self._maybe_one_element(target.slice, target.value) \
                and not self._idempotent_update(node.value, text) and _accumulates(node.value, text):
            x, i = self.source.segment(target.value), self.source.segment(key)
            self.flag(node, overwrite.check_read_modify_write(
                f"{x}[{self.source.segment(target.slice)}] = ...", i, index.domain.origin,
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
        if rows_hold_once(found, bound.get("dim")):
            return  # each row of `ids.repeat(b, 1)` holds the values once: a scatter along it writes each once
        if op.name == "scatter" and one_entry_per_line(self, found, bound["index"], bound.get("dim")):
            return  # `x.scatter_(-1, t.unsqueeze(-1), ...)`: one entry per row, nothing to collide with
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

    def _idempotent_update(self, value_node, read) -> bool:
        """`x[I] = torch.maximum(x[I], c)` (minimum, clamp, `|`, `&`) with c the same for every entry (a number,
        `full_like(x[I], c)`, a 0-d tensor): a repeated position computes the same value from the same read, and
        doing it twice in a row gives what doing it once does, so the writes that win lose nothing."""
        if isinstance(value_node, ast.BinOp) and isinstance(value_node.op, (ast.BitOr, ast.BitAnd)):
            operands, kwargs = [value_node.left, value_node.right], []
        elif isinstance(value_node, ast.Call) and called_name(value_node) in _IDEMPOTENT:
            # `torch.maximum(r, c)` or `r.clamp(min=c)`: the read is the owner or an argument
            owner = [value_node.func.value] if isinstance(value_node.func, ast.Attribute) and \
                not isinstance(self.expr(value_node.func.value), QualName) else []
            operands, kwargs = owner + list(value_node.args), [k.value for k in value_node.keywords]
        else:
            return False

        def is_read(n) -> bool:
            return isinstance(n, ast.Subscript) and (ast.dump(n.value), ast.dump(n.slice)) == read

        others = [n for n in operands if not is_read(n)] + kwargs
        # `torch.max(r, 1)` reduces over dim 1: max and min take only a tensor as the other operand
        numbers = not (isinstance(value_node, ast.Call) and called_name(value_node) in ("max", "min"))
        return len(others) < len(operands) + len(kwargs) and all(self._same_for_every_entry(n, numbers) for n in others)

    def _same_for_every_entry(self, node, numbers: bool) -> bool:
        if isinstance(node, ast.Call) and called_name(node) in ("full_like", "zeros_like", "ones_like"):
            return all(not isinstance(self.expr(a), TensorVal) for a in node.args[1:])
        value = self.expr(node)
        if isinstance(value, TensorVal):
            return value.shape is not None and not value.shape.variadic and not value.shape.dims
        return numbers and (value is not None or isinstance(node, ast.Constant))  # one number for all entries

    def _plain_increment(self, value_node, target) -> bool:
        """`x[i] + v`, `v + x[i]` or `x[i] - v` with v convertible (the rest are not rewritten)."""
        if not isinstance(value_node, ast.BinOp) or not isinstance(value_node.op, (ast.Add, ast.Sub)):
            return False
        key = (ast.dump(target.value), ast.dump(target.slice))  # the target is Store, the read Load: compare parts
        same = [isinstance(side, ast.Subscript) and (ast.dump(side.value), ast.dump(side.slice)) == key
                for side in (value_node.left, value_node.right)]
        other = value_node.right if same[0] else value_node.left if same[1] and isinstance(value_node.op, ast.Add) else None
        return other is not None and self._convertible(other, self.expr(other))

    def _maybe_one_element(self, index_node, owner_node=None) -> bool:
        """`x[ids[i]] += 1` with a plain (non-tensor) i picks one element of a 1-d ids: nothing can repeat.
        So does a name last given such an element (`key = target[i]`, then `x[key] = f(x[key])`): in a
        loop, each statement writes one position and the next reads what it wrote. So does the name of a
        loop over the written object itself (`for key in labels: labels[key] = labels[key].squeeze(0)`):
        the keys of a dict of tensors, whatever the object's name says, one written per statement. An element
        shifted by a number (`x[labels[i] - 1]`, a 1-based label) is one element too."""
        if isinstance(index_node, ast.BinOp) and isinstance(index_node.op, (ast.Add, ast.Sub)):
            for element, other in ((index_node.left, index_node.right), (index_node.right, index_node.left)):
                if isinstance(other, ast.Constant) and isinstance(other.value, int) \
                        and isinstance(element, (ast.Name, ast.Subscript)):
                    return self._maybe_one_element(element, owner_node)
            return False
        if isinstance(index_node, ast.Name):
            made = last_assigned(self, index_node.id, index_node.lineno)
            loop = _loop_binding(self, index_node.id, index_node.lineno)
            if loop is not None and (made is None or made.lineno < loop.lineno):
                if owner_node is not None and ast.dump(loop.iter) == ast.dump(owner_node):
                    return True
                return _edge_list_row(loop.iter)  # `for child in edge_index[1]: deg[child] += 1`
            return isinstance(made, ast.Subscript) and self._maybe_one_element(made)
        if isinstance(index_node, ast.Subscript) and isinstance(index_node.slice, ast.Tuple):
            return self._one_element_per_dim(index_node)  # `pairs[0, k]` of a 2-d table: one entry
        if not isinstance(index_node, ast.Subscript) or \
                not isinstance(index_node.slice, (ast.Name, ast.Constant, ast.BinOp, ast.UnaryOp)):
            return False  # a slice, a mask comparison: a selection of many
        if isinstance(index_node.value, ast.Name) and edge_list_domain(index_node.value.id) is not None:
            return False  # edge_index[1]: a [2, E] edge list's row of targets
        return not isinstance(self.expr(index_node.slice), TensorVal)

    def _one_element_per_dim(self, index_node: ast.Subscript) -> bool:
        """`t[i, k]` with a plain int for every dim of t (its rank known): one element."""
        keys = index_node.slice.elts
        if not all(isinstance(k, (ast.Name, ast.Constant, ast.BinOp, ast.UnaryOp)) for k in keys):
            return False
        owner = self.expr(index_node.value)
        shape = owner.shape if isinstance(owner, TensorVal) else None
        if shape is None or shape.variadic or len(shape.dims) != len(keys):
            return False
        return not any(isinstance(self.expr(k), TensorVal) for k in keys)

    def _check_overwrite(self, node: ast.AugAssign, value=None) -> None:
        """GL013: x[ids] += v with ids that can repeat adds once per distinct id."""
        owner = self.expr(node.target.value)
        key = self.expr(node.target.slice)
        if not isinstance(owner, TensorVal) and not (owner is None and _torch_key(key)):
            return  # only a tensor: lists and dicts are indexed by position or key
        items = key.items if isinstance(key, SeqVal) else (key,)
        tensors = [k for k in items if isinstance(k, TensorVal) or k is None]
        if len(tensors) > 1 and len(tensors) == len(items):  # x[rows, cols] += v: positions are tuples,
            if not isinstance(node.target.slice, ast.Tuple):
                return  # `x[coords] += v`, coords a tuple bound above (of slices, often): its parts are not at hand
            if all(self._maybe_one_element(e) for e in node.target.slice.elts):
                return  # M[row[i], col[i]] += 1 in a loop: one position per statement, each added in turn
            origin = self._repeating(node.target.slice.elts)  # which repeat only if every component can
            paired = broadcast_rows.paired_index(self, node.target.slice.elts, node.lineno)
            if origin is None and paired is not None:  # ... or, beside row numbers, where the other repeats
                other = self.expr(paired)
                learnt = compared_token_ids(self, paired)  # ids compared with pad: rows of token ids
                other = TensorVal(None, None, learnt) if learnt is not None and other is None else other
                if _can_repeat(other) and broadcast_rows.several_per_row(other):
                    origin = f"row numbers broadcast over each row and {other.domain.origin} within it"
            if origin is not None:
                self.flag(node, overwrite.check_augmented(
                    self.source.segment(node.target.value), self.source.segment(node.target.slice), origin,
                    "+=" if isinstance(node.op, ast.Add) else "-=", self.source.segment(node.value)), None)
            return
        if len(tensors) != 1 or not _can_repeat(tensors[0]) or self._maybe_one_element(node.target.slice, node.target.value):
            return
        index = tensors[0]
        if isinstance(index, TensorVal) and named_only(index) and len(items) > 1 and (
                not isinstance(owner, TensorVal) or owner.shape is None):
            return  # `x[:, labels] += c` on a tensor of unknown rank: only a name says what the positions are
        if maybe_mask(index):
            return  # `v[target] += dv`: one value, or a boolean mask, which picks each position once
        violation = overwrite.check_augmented(self.source.segment(node.target.value), self.source.segment(node.target.slice),
                                              index.domain.origin, "+=" if isinstance(node.op, ast.Add) else "-=",
                                              self.source.segment(node.value), self._convertible(node.value, value))
        self.flag(node, violation, None)

    def _check_padding_lookup(self, node, ids_node, ids: TensorVal, what: str) -> None:
        """GL011 for lookups that are not family calls: one_hot and embeddings reject negative ids too."""
        domain = ids.domain
        if domain is not None and domain.sentinel is not None and domain.sentinel < 0:
            self.flag(node, oob.padding_lookup(self.source.segment(ids_node), domain, what), None)

    def _check_squeeze_all(self, node, owner_node, owner: TensorVal) -> None:
        """GL006, the reverse: .squeeze() on a gathered [1, L, 1] also drops the size-1 batch dim. Only a dim the
        gathered input has of size 1 too is a dim of the data: a size 1 that only the index has (`ws.view(B, 1,
        1)` into a [B, G, F] input) is the index's, and whether it should be there is GL005's question."""
        violation = missing_squeeze.check_squeeze_all(owner.shape, owner.kept_singleton, self.source.segment(owner_node))
        if violation is not None and self._size_one_in_the_input(owner):
            self.flag(node, violation, None)

    def _size_one_in_the_input(self, gathered: TensorVal) -> bool:
        """Whether the gather that made `gathered` read an input of its rank with size 1 wherever `gathered` has
        it, off the gathered dim."""
        call = gathered.kept_at
        if not isinstance(call, ast.Call) or not isinstance(call.func, ast.Attribute):
            return False
        receiver = call.func.value
        function_form = isinstance(self._peek(receiver), QualName)  # torch.gather(x, ...), under any alias of torch
        source = call.args[0] if function_form and call.args else receiver
        found = self._peek(source)
        shape, dims = getattr(found, "shape", None), gathered.shape.dims
        if shape is None or shape.variadic or len(shape.dims) != len(dims):
            return False
        return all(value(shape.dims[k]) == 1 for k, d in enumerate(dims) if k != gathered.kept_singleton and d == 1)

    def _check_broadcast(self, node, left_node, left, right_node, right, op: str) -> None:
        """Two tensors combined elementwise: the rules that name a cause (a kept singleton, a dropped dim, a
        per-row pick) first; where none of them explains it, sizes that cannot broadcast at all (GL036)."""
        explained, flag = [], self.flag
        self.flag = lambda *found: (explained.append(found), flag(*found))
        try:
            self._explain_broadcast(node, left_node, left, right_node, right, op)
        finally:
            self.flag = flag
        if not explained:
            broadcast_mismatch.check(self, node, left_node, left, right_node, right, op)  # GL036

    def _explain_broadcast(self, node, left_node, left, right_node, right, op: str) -> None:
        """GL006: a gather's kept singleton meeting a tensor that lacks it. Reported on the gather
        (where the squeeze belongs) when it is in this function, else where the two meet."""
        advanced_indexing.check_combined(self, left_node, left, right_node, right, op)  # GL017
        one_hot_pick.check(self, left_node, left, right_node, right)  # GL020
        inferred_widths.check(self, node, left_node, left, right_node, right)  # GL028
        dropped_dims.check(self, node, left_node, left, right_node, right, op)  # GL029
        if pairwise_terms.deliberate(self, node):
            return  # a pairwise table next to a matrix product: the outer product is wanted
        loss_targets.check(self, node, left_node, left, right_node, right, op)  # GL006: target [B, A] for [B, 1]
        loss_columns.check(self, node, left_node, left, right_node, right, op)  # GL006: [N, 1] against [N] in a loss
        passed_columns.check(self, node, left_node, left, right_node, right, op)  # GL006: [B] passed for [B, 1]
        squeezed_picks.check(self, node, left_node, left, right_node, right, op)  # GL006: squeezed pick with [B, 1]
        for mine, mine_node, other, other_node in ((left, left_node, right, right_node), (right, right_node, left, left_node)):
            if isinstance(mine, TensorVal) and mine.kept_singleton is not None and isinstance(other, TensorVal) \
                    and other.kept_singleton is None:
                head = head_columns.is_head(mine)  # a width-1 layer's output: reported where it is used
                gather = mine.kept_at if mine.kept_at is not None and not head and self._in_this_function(mine.kept_at) else None
                # a method of this file returned it (`q = self.net.q_values(s)`): the squeeze belongs at its
                # gather, which the finding names (without a fix there: other callers share that code)
                returned = mine.kept_at if gather is None and mine.kept_at is not None and not head else None
                at = gather or returned or mine_node
                violation = missing_squeeze.check_broadcast(
                    mine.shape, mine.kept_singleton, other.shape, self.source.segment(at),
                    self.source.segment(other_node), op, node.lineno if gather is not None or returned is not None else None,
                    "the index's" if isinstance(mine.kept_at, ast.Subscript) else mine.kept_at.kept_by if head else "gather's",
                    left.shape if isinstance(left, TensorVal) and missing_squeeze.in_place(op) else None)  # `x += y`
                if violation is not None and violation.fix_suffix is not None \
                        and _reduced_past(self.function, node, len(mine.shape.dims) - 1):
                    violation = replace(violation, fix_suffix=None)  # the code reads the broadcast's extra dim
                if violation is not None:
                    passed_in = gather is None and returned is None and self.call_depth and isinstance(mine_node, ast.Name) \
                        and mine_node.id in self.params  # the caller passed it: its call is where it goes wrong
                    if returned is not None:
                        self.flag(returned, replace(violation, fix_suffix=None), None)
                        return
                    self.flag(PassedIn(node) if passed_in else gather or node, violation, at)
                return

    def _in_this_function(self, node) -> bool:
        first, last = self.comments.span
        return first <= node.lineno <= last


def _reduced_past(function, combined, rank: int) -> bool:
    """`torch.sum(a * b, dim=[1, 2])` or `(a * b).mean(2)`: the combination is reduced over a dim that the squeezed
    result (of `rank` dims) lacks. The code was written for the broadcast's shape, so squeezing the gather alone
    makes the reduction raise: the squeeze is no safe fix there."""
    if function is None:
        return False
    for call in all_nodes(function):
        if not isinstance(call, ast.Call):
            continue
        on_it = (call.args and call.args[0] is combined) or \
            (isinstance(call.func, ast.Attribute) and call.func.value is combined)
        if not on_it:
            continue
        dims = [k.value for k in call.keywords if k.arg == "dim"]
        if isinstance(call.func, ast.Attribute) and call.func.value is combined and call.args:
            dims.append(call.args[0])
        elif len(call.args) > 1:
            dims.append(call.args[1])
        for dim in dims:
            for item in (dim.elts if isinstance(dim, (ast.List, ast.Tuple)) else [dim]):
                number = item.value if isinstance(item, ast.Constant) and type(item.value) is int else None
                if number is not None and not -rank <= number < rank:
                    return True
    return False


def _leading_index(key):
    """The index of a key that picks whole rows: `ids` itself, or `ids` of `ids, :` / `ids, ...` (full slices after
    it); None for other tuples (`x[:, ids]`, `x[rows, cols]`)."""
    if not isinstance(key, ast.Tuple):
        return key
    first, rest = key.elts[0] if key.elts else None, key.elts[1:]
    if first is None or isinstance(first, (ast.Slice, ast.Starred)) or not rest:
        return None
    full = all((isinstance(e, ast.Slice) and e.lower is None and e.upper is None and e.step is None)
               or (isinstance(e, ast.Constant) and e.value is Ellipsis) for e in rest)
    return first if full else None


class PassedIn:
    """A finding about a value the caller passed in: calls.py reports it on the caller's call."""

    def __init__(self, node):
        self.node = node
        self.lineno, self.col_offset = node.lineno, node.col_offset
        self.end_lineno, self.end_col_offset = node.end_lineno, node.end_col_offset


def _can_repeat(index) -> bool:
    """An integer index tensor whose values can repeat (ids, labels, randint): GL013's evidence."""
    return isinstance(index, TensorVal) and index.dtype not in ("bool", "uint8") and \
        index.domain is not None and index.domain.repeats and not _single(index)


def _torch_key(key) -> bool:
    """A key of several torch tensors (`x[rows, ids]`): x, even untracked, is a tensor, as no list or
    dict takes such a key."""
    items = key.items if isinstance(key, SeqVal) else ()
    return len(items) > 1 and any(isinstance(k, TensorVal) and (k.shape is not None or k.dtype is not None)
                                  for k in items)


def _single(index: TensorVal) -> bool:
    """One element (`ids[b, p]` with int positions is 0-d): nothing to repeat."""
    s = index.shape
    return s is not None and not s.variadic and all(d == 1 for d in s.dims)


def _loop_binding(interp, name: str, line: int):
    """The innermost `for name in ...` of the scope being run whose body holds `line` (None if none)."""
    scope = getattr(interp, "function", None) or getattr(getattr(interp, "module", None), "tree", None)
    if scope is None:
        return None
    found = None
    for node in own_nodes(scope):
        if isinstance(node, (ast.For, ast.AsyncFor)) and isinstance(node.target, ast.Name) \
                and node.target.id == name and node.body[0].lineno <= line <= (node.end_lineno or node.lineno):
            if found is None or node.lineno > found.lineno:
                found = node
    return found


def _edge_list_row(iterable) -> bool:
    """`edge_index[1]`: a row of a [2, E] edge list, 1-d, so a loop over it gives one 0-d node id per
    pass (a loop over a tensor known to be 1-d already gives a 0-d element)."""
    return isinstance(iterable, ast.Subscript) and isinstance(iterable.value, ast.Name) \
        and edge_list_domain(iterable.value.id) is not None \
        and isinstance(iterable.slice, ast.Constant) and type(iterable.slice.value) is int


# updates u with u(u(r, c), c) == u(r, c) for a fixed c
_IDEMPOTENT = frozenset({"maximum", "minimum", "max", "min", "fmax", "fmin", "clamp", "clip", "clamp_min", "clamp_max",
                         "logical_or", "logical_and", "bitwise_or", "bitwise_and"})
