"""GL013 for writes that keep one value per position where the code fills a buffer entry by entry.

`x[i, j] = v`, `x.index_put_((i, j), v)`, `x.scatter_(d, i, src)` and `x.index_copy_(d, i, src)`
keep one write per repeated position (which one is unspecified). That is only a mistake where
several different values are meant to meet, so a finding needs all of:

* positions that can repeat: every index tensor carries the mark (ids/labels, randint, quantised
  coordinates, argmax picks: see repeated_indices.py); one distinct component such as `arange`
  makes the positions distinct, so it silences the check;
* different values per entry: a tensor, not a number (`mask[ids] = 1` marks presence and is
  right), and not computed from the index itself (`x[ids] = table[ids]` writes equal values
  to equal positions); through unique()'s inverse, not the rows' own numbers nor a grouping of a
  part of the unique key (group_lookups.py);
* a buffer being filled: straight from `zeros` or a constant fill (a histogram, a depth map, a range
  image's -1, a distribution on the vocabulary), made in the function that writes it (a module's buffer from `__init__`, written in
  `forward`, is state kept across calls: zeros only until the first one), or the same positions read
  before the write with an increment added (`c = x.index_select(0, ids); x.index_copy_(0, ids, c + delta)`);
  any buffer, when the index has more entries along the written dim than it has positions (known sizes):
  positions surely collide.
"""
from __future__ import annotations

import ast
import re
from typing import Dict, Optional, Tuple

from ..dims import normalize_dim, value as dim_value
from ..rules import gl013_overwriting_accumulate as overwrite
from ..suggest import method_call
from . import attribute_stores, exact_values, group_lookups, value_makers
from .last_assignment import last_assigned
from .names import EDGE_LIST_ORIGIN, is_group_ids
from .repeated_indices import copied, copied_by, literal_only, named_only, one_entry_per_line, relabelled, repeats, rows_hold_once
from .row_numbers import row_numbers
from .tensor_ops import as_int
from .tree_walk import full_slice
from .values import DimVal, Literal, TensorVal

_READERS = {"index_select": "index_copy", "gather": "scatter"}
# a read and the write it pairs with; `_, best = x.max(0)` picks as `x.argmax(0)` does
_PER_ROW_PICKS = tuple(f"positions from {op}() over dim" for op in ("argmax", "argmin", "max", "min"))
_ADDERS = {"index_copy": "index_add_", "scatter": "scatter_add_"}
_CASTS = frozenset({"to", "float", "long", "int", "half", "bool", "type_as", "type", "detach", "clone"})


class OverwriteWriteMixin:
    """Non-accumulating writes into buffers being filled (see the module docstring)."""

    def _note_read(self, node: ast.Assign) -> None:
        """`name = x.index_select(d, I)` / `x.gather(d, I)`: remembered to pair with a later write."""
        reads: Dict[str, Tuple[str, str, str]] = self.__dict__.setdefault("_positional_reads", {})
        if len(node.targets) != 1 or not isinstance(node.targets[0], ast.Name):
            return
        name, made = node.targets[0].id, node.value
        reads.pop(name, None)
        if isinstance(made, ast.Call) and isinstance(made.func, ast.Attribute) and made.func.attr in _READERS \
                and len(made.args) >= 2:
            reads[name] = (made.func.attr, ast.dump(made.func.value), ast.dump(made.args[1]))

    def _check_overwriting_assign(self, node: ast.Assign, target: ast.Subscript, written) -> None:
        """`buf[i, j] = v` into a fresh zeros buffer, with positions that can repeat."""
        buffer = self.expr(target.value)
        if not self._being_filled(target.value, buffer) or not _per_entry(written, node.value):
            return
        components = _components(target.slice)
        found = self._repeating(components)
        if found is None or _mentions(node.value, components) or self._assigns_slots(components):
            return
        if group_lookups.one_value_per_group(self, components, node.value,
                                             lambda n, makers: value_makers.made_by(self, n, makers)):
            return  # a row number per group, or a part of the grouped key: one value per position
        x, key = self.source.segment(target.value), self.source.segment(target.slice)
        items = list(target.slice.elts) if isinstance(target.slice, ast.Tuple) else [target.slice]
        positions = ", ".join(self.source.segment(c) for c in components)
        value = self.source.segment(node.value)
        if len(items) == len(components):  # tensors only: index_put_ takes them as they are
            call = f"index_put_({overwrite.index_tuple(key)}, {value}, accumulate=True)"
        elif len(components) == 1 and len(items) > 1 and all(full_slice(k) for k in items if k is not components[0]):
            # `bev[:, cells] = v`: whole axes around one index tensor, which index_add_ takes along its axis
            call = f"index_add_({target.slice.elts.index(components[0])}, {positions}, {value})"
        else:
            call = None
        fix = (f"accumulate with `{method_call(x, call)}`, or choose" if call is not None else "accumulate, or choose") \
            + " one deliberately with `scatter_reduce_(..., 'amax'/'amin')`"
        self.flag(node, overwrite.check_overwriting_write(f"{x}[{key}] = ...", f"`{positions}`", found,
                                                          "one value per entry", fix), None)

    def _check_index_put(self, node: ast.Call, owner, args, kwargs) -> None:
        """`buf.index_put_((i, j), v)` without accumulate=True into a fresh zeros buffer."""
        if not isinstance(node.func, ast.Attribute) or not self._being_filled(node.func.value, owner) \
                or len(node.args) < 2:
            return
        if not _without_accumulate(args, kwargs):
            return
        indices, values = node.args[0], node.args[1]
        components = list(indices.elts) if isinstance(indices, (ast.Tuple, ast.List)) else None
        if components is None or not _per_entry(args[1], values):
            return
        found = self._repeating(components)
        if found is None or _mentions(values, components):
            return
        x = self.source.segment(node.func.value)
        self.flag(node, overwrite.check_overwriting_write(
            f"{x}.{node.func.attr}(...)", f"`{self.source.segment(indices)}`", found, "one value per entry",
            "accumulate by passing `accumulate=True`"), None)

    def _check_put(self, node: ast.Call, owner, args, kwargs) -> None:
        """`buf.put_(flat, v)` without accumulate=True into a fresh zeros buffer: flat positions that repeat."""
        if not isinstance(node.func, ast.Attribute) or not self._being_filled(node.func.value, owner) \
                or len(node.args) < 2 or any(isinstance(a, ast.Starred) for a in node.args):
            return
        if not _without_accumulate(args, kwargs):
            return
        positions, values = node.args[0], node.args[1]
        if not _per_entry(args[1], values):
            return
        found = self._repeating([positions])
        if found is None or _mentions(values, [positions]):
            return
        x, index = self.source.segment(node.func.value), self.source.segment(positions)
        fix = method_call(x, f"put_({index}, {self.source.segment(values)}, accumulate=True)")
        self.flag(node, overwrite.check_overwriting_write(
            f"{x}.{node.func.attr}(...)", f"`{index}`", found, "one value per entry", f"accumulate with `{fix}`"), None)

    def _spare_slot(self, index_node, line: int, buffer, dim) -> bool:
        """`offset = torch.where(loc < capacity, slot, num_slots)` into a buffer of num_slots + 1 positions (then
        `[:-1]`): every entry the condition turns away goes to the one spare last position, where a lost write is
        the point; neither the pigeonhole nor the spare's repeats say a slot meant is written twice."""
        while isinstance(index_node, ast.Call) and isinstance(index_node.func, ast.Attribute) and not index_node.args:
            index_node = index_node.func.value  # .flatten(), .long(), .view(-1) ...
        made = last_assigned(self, index_node.id, line) if isinstance(index_node, ast.Name) else index_node
        if not (isinstance(made, ast.Call) and isinstance(made.func, (ast.Attribute, ast.Name)) and len(made.args) == 3
                and (made.func.attr if isinstance(made.func, ast.Attribute) else made.func.id) == "where"):
            return False
        axis = as_int(dim)
        shape = buffer.shape if isinstance(buffer, TensorVal) else None
        if axis is None or shape is None or shape.variadic or not -len(shape.dims) <= axis < len(shape.dims):
            return False
        last = dim_value(shape.dims[axis])
        spare = [as_int(self._peek(branch)) for branch in made.args[1:]]
        return last is not None and last - 1 in spare

    def _check_overwriting_op(self, node: ast.Call, op, bound, values) -> None:
        """scatter (no reduce) of a src tensor into fresh zeros; index_copy_ of a read plus an increment."""
        if op.name not in ("scatter", "index_copy") or "reduce" in bound or op.payload_param not in bound:
            return
        index = values.get("index")
        along = values.get("dim") if op.name == "scatter" else DimVal(0)
        crowded = _more_entries_than_positions(index, values.get("input"), values.get("dim"), op.name != "scatter")
        repeating = repeats(index) and not (op.name == "scatter" and (rows_hold_once(index, bound.get("dim")) or one_entry_per_line(
            self, index, bound["index"], bound.get("dim"))))
        if not repeating and crowded is None or self._spare_slot(bound["index"], node.lineno, values.get("input"), along):
            return
        payload_node = bound[op.payload_param]
        payload = values.get(op.payload_param)
        if op.name == "scatter" and exact_values.scatter_repeats_agree(index, payload, along):
            return  # every repeated position gets one value, entry by entry: nothing is dropped
        if self._writes_a_mask(payload, payload_node, node.lineno):
            return
        x, i = self.source.segment(bound["input"]), self.source.segment(bound["index"])
        write = f"{x}.{op.spelled}(...)"
        if self._adds_to_read(payload_node, op.name, bound):
            self.flag(node, overwrite.check_read_modify_write(
                write, i, crowded if repeats(index) and not repeating else index.domain.origin, f"`.{_ADDERS[op.name]}(...)` on the increment alone"), None)
            return
        if not self._being_filled(bound["input"], values.get("input")) and crowded is None:
            return  # a buffer not being filled may be overwritten on purpose, unless positions surely collide
        if not _per_entry(payload, payload_node):
            self._check_counting_ones(node, op, bound, index, crowded)
            return
        # index_copy_ takes a 1-d index whatever the dim; scatter's index runs along `dim`
        if _mentions(payload_node, [bound["index"]]) or not _several_along(index, along):
            return
        if crowded is None and named_only(index) and (index.shape is None or len(index.shape.dims) < 2):
            return  # a list of ids may be a set; a batch of id sequences is running text, where ids repeat
        adder = op.spelled.replace("scatter", "scatter_add").replace("index_copy", "index_add")
        origin = index.domain.origin if repeating and not (crowded and literal_only(index)) else crowded
        if op.name != "scatter":
            other = ""
        elif value_makers.made_by(self, payload_node, ("arange",)) is not None:  # each value's first position
            other = " (or `scatter_reduce_(..., 'amin', include_self=False)` where each value's first position was meant)"
        else:
            other = " (or `scatter_reduce(..., 'amax')` / 'mean' where one maximum or a mean per position was meant)"
        self.flag(node, overwrite.check_overwriting_write(
            write, f"`{i}`", origin, f"the entries of `{self.source.segment(payload_node)}`",
            f"accumulate with `{method_call(x, adder + '(...)')}`{other}"), None)

    def _writes_a_mask(self, payload, node, line: int) -> bool:
        """A 0/1 mask written at ids (`mask.scatter(1, input_ids, attention_mask)`, SPLADE's lexical mask): one
        id is written two values only where it is both kept and masked, which nothing here says; ids that
        repeat among the kept write 1 each time. Known 0/1 values, or a mask by name through its casts."""
        if isinstance(payload, TensorVal) and payload.domain is not None and payload.domain.origin.startswith("0 and 1"):
            return True
        for _ in range(3):  # the payload's own name, then what it was made of (`weights = attention_mask.to(x)`)
            while isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr in _CASTS:
                node = node.func.value
            if isinstance(node, (ast.Name, ast.Attribute)) and _last_name(node).lower().endswith("mask"):
                return True
            if not isinstance(node, ast.Name):
                return False
            node = last_assigned(self, node.id, line)
        return False

    def _being_filled(self, node, buffer) -> bool:
        """A zeros buffer this function fills: a local, or an attribute this function (re)binds.
        `self.memory` from `__init__` (or register_buffer) is module state that `forward` updates in
        place on every call, a cache or a bank whose slots are overwritten on purpose."""
        if not _fresh_zeros(buffer):
            return False
        if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id == "self":
            function = getattr(self, "function", None)
            return function is not None and node.attr in attribute_stores.stored_names(function)
        return True

    def _check_counting_ones(self, node: ast.Call, op, bound, index, crowded: Optional[str]) -> None:
        """`counts.scatter_(0, ids, ones)` into a zeros buffer named as a count: a position hit k times
        holds 1, not k. Ones mark presence legitimately (a one-hot, a mask), so the buffer's name
        (`counts`, `hist`, `freq`, `num_...`) must say that occurrences are being counted."""
        if op.name != "scatter" or not _ones(bound[op.payload_param]):
            return
        x = self.source.segment(bound["input"])
        if not _COUNT_NAME.search(_last_name(bound["input"])):
            return
        origin = index.domain.origin if repeats(index) and not (crowded and literal_only(index)) else crowded
        if origin is None or (crowded is None and named_only(index) and (index.shape is None or len(index.shape.dims) < 2)):
            return
        self.flag(node, overwrite.check_counting_ones(
            f"{x}.{op.spelled}(...)", f"`{self.source.segment(bound['index'])}`", origin,
            method_call(x, "scatter_add_(...)")), None)

    def _assigns_slots(self, components) -> bool:
        """`coord[cell, slot] = boxes` with `slot` each row's own argmax (its best anchor): the pick is how the
        code gives rows sharing the other component places of their own, so a pair repeats only where both
        agree, which nothing here says (a count, `cm[label, pred] += 1`, is checked as an increment)."""
        if len(components) < 2:
            return False
        values = [self.expr(c) for c in components]
        return any(isinstance(v, TensorVal) and v.domain is not None and v.domain.origin.startswith(_PER_ROW_PICKS)
                   for v in values)

    def _repeating(self, components) -> Optional[str]:
        """What the positions hold when every index component is a tensor that can repeat, and at
        least one of them was computed so (a name alone calls a set of ids such as added tokens,
        or the two rows of a sparse index, `ids`/`y` as readily as a batch of labels)."""
        if not components:
            return None
        found = [self.expr(c) for c in components]
        known = exact_values.repeated_position(found)
        if known is not None:  # every component known entry by entry: whether a position repeats is known
            return known or None
        if _crossed(found):
            return None  # every pair of two lists' values once (`a.repeat_interleave(n)`, `b.repeat(n)`)
        if len(found) > 1 and all(relabelled(v) for v in found):
            # `m[inv_a, inv_b]` of two relabellings: a pair of slots repeats only where a pair of the values they
            # relabel does (each value repeating alone says nothing of the pairs)
            return None
        # a flat batch's group ids (`bev[batch_idx, iy, ix] = v`) tell the samples apart, not the entries of
        # one sample: positions repeat wherever the other components repeat within a sample
        grouped = [c for c, v in zip(components, found) if not repeats(v) and isinstance(c, ast.Name)
                   and is_group_ids(c.id) and not row_numbers(self, c, v)]
        # values copied k times beside other components (`arange(B)[:, None].repeat(1, n).view(-1)`, then the
        # ids of each row) number the rows those ids belong to, as group ids do
        grouped += [c for c, v in zip(components, found) if len(components) > 1 and c not in grouped
                    and repeats(v) and copied(v)]
        if grouped and len(grouped) < len(components):
            found = [v for c, v in zip(components, found) if c not in grouped]
            components = [c for c in components if c not in grouped]
            if any(isinstance(v, TensorVal) and v.domain is not None and v.domain.distinct_rows for v in found):
                return None  # each group's own positions are distinct (stacked permutations): nothing collides
        # a row number spread along the rows (`arange(B)[:, None]`, `.unsqueeze(1).expand_as(ids)`) tells the
        # rows apart, not the positions within one: those repeat wherever the other components repeat in a row
        rows = [row_numbers(self, c, v) for c, v in zip(components, found)]
        others = [v for v, row in zip(found, rows) if not row]
        # several ids per row ([B, S], S not 1) are running text, where ids repeat, as scatter's check has it
        sequences = any(rows) and bool(others) and all(_several_per_row(v) for v in others)
        if sequences:
            found = others
        if not all(repeats(v) for v in found) or (all(named_only(v) for v in found) and not sequences
                                                  and not _pairs_of_one_sequence(components, found)):
            return None
        if all(v.domain.origin.startswith(EDGE_LIST_ORIGIN) for v in found):
            # `x[loop_index] = loop_attr`, node ids taken from an edge list: only the list's name says they
            # repeat, and one value per node (a self-loop's attribute) is what such writes set; scatter's check
            # covers messages per edge. A pair `adj[src, dst]` is an edge, which repeats only in a multigraph,
            # and the name does not say the graph is one (values known to repeat a pair are read above)
            return None
        origins = []
        for v in found:
            if v.domain.origin and v.domain.origin not in origins:
                origins.append(v.domain.origin)
        return " and ".join(origins) or "values that can repeat"

    def _adds_to_read(self, payload_node, op_name: str, bound) -> bool:
        """`read + delta` / `read - delta` where read was `x.<reader>(d, I)` of this write's x and I,
        and delta is a tensor: each repeated position gets its own increment, and only one survives."""
        if not isinstance(payload_node, ast.BinOp) or not isinstance(payload_node.op, (ast.Add, ast.Sub)):
            return False
        reads = self.__dict__.get("_positional_reads", {})
        key = (ast.dump(bound["input"]), ast.dump(bound["index"]))
        for read, other in ((payload_node.left, payload_node.right), (payload_node.right, payload_node.left)):
            if read is payload_node.right and isinstance(payload_node.op, ast.Sub):
                continue  # delta - read is not an increment of read
            if isinstance(read, ast.Name) and read.id in reads:
                reader, receiver, index = reads[read.id]
                if _READERS[reader] == op_name and (receiver, index) == key and isinstance(self.expr(other), TensorVal):
                    return True
        return False


def _crossed(found) -> bool:
    """Components that are only copies, one made by repeat_interleave and one by repeat or tile: `rows =
    ids.repeat_interleave(len(ids)); cols = ids.repeat(len(ids))` pair each row value with every column value
    once, the pairs of a Cartesian product (a pairwise distance matrix filled at selected tokens), so no
    position repeats unless a list itself does, and the copying alone is no evidence of that."""
    if len(found) < 2 or not all(repeats(v) and copied(v) for v in found):
        return False
    kinds = {copied_by(v) for v in found}
    return "repeat_interleave" in kinds and bool(kinds & {"repeat", "tile"})


# names that say a buffer counts occurrences (snake_case parts or a camelCase start)
_COUNT_NAME = re.compile(r"(?:^|_)(?:counts?|cnts?|hist|histogram|freqs?|frequency|frequencies|tally|tallies"
                         r"|occurrences?|num|n)(?:_|$)|^(?:counts?|hist|freq|num)[A-Z]")


def _last_name(node) -> str:
    """`counts` for `counts`, `self.counts`, `stats.counts`; '' for anything else."""
    if isinstance(node, ast.Name):
        return node.id
    return node.attr if isinstance(node, ast.Attribute) else ""


def _pairs_of_one_sequence(components, found) -> bool:
    """`counts[tokens[:-1], tokens[1:]]`, or tensors made of items of one sequence (`M[centers, contexts]` with
    both appended from `doc_ids`, sequence_items.py): pairs of its ids, which recur as its ids do, unlike two
    named id lists that may hold distinct pairs (a sparse matrix's rows and columns)."""
    owners = {ast.dump(c.value) if isinstance(c, ast.Subscript) and isinstance(c.slice, ast.Slice) else None
              for c in components}
    if len(components) > 1 and len(owners) == 1 and None not in owners:
        return True
    sources = {v.domain.items_of for v in found}
    return len(found) > 1 and len(sources) == 1 and None not in sources


def _ones(node) -> bool:
    """The literal 1 / 1.0, or ones made to the index's size (`torch.ones_like(ids)`, `x.new_ones(n)`)."""
    if isinstance(node, ast.Constant) and type(node.value) in (int, float) and node.value == 1:
        return True
    if isinstance(node, ast.Call):
        func = node.func
        name = func.attr if isinstance(func, ast.Attribute) else func.id if isinstance(func, ast.Name) else ""
        return name in ("ones", "ones_like", "new_ones")
    return False


def _more_entries_than_positions(index, buffer, dim, vector: bool = False) -> Optional[str]:
    """Pigeonhole: an index with more entries along the written dim than the buffer has positions
    there (known sizes) certainly repeats a position (in every row). `vector`: index_copy_'s 1-d index."""
    axis = as_int(dim)
    if not isinstance(index, TensorVal) or not isinstance(buffer, TensorVal) or axis is None:
        return None
    if index.dtype in ("bool", "uint8") or index.shape is None or buffer.shape is None \
            or index.shape.variadic or buffer.shape.variadic:
        return None
    if len(index.shape.dims) != (1 if vector else len(buffer.shape.dims)):
        return None
    axis = normalize_dim(axis, len(buffer.shape.dims))
    if axis is None or not buffer.shape.dims:  # a 0-d buffer has one position, whatever the index
        return None
    entries = dim_value(index.shape.dims[0 if vector else axis])
    positions = dim_value(buffer.shape.dims[axis])
    if entries is None or positions is None or entries <= positions:
        return None
    return f"{entries} entries for {positions} positions along dim {axis}, so some positions certainly repeat"


def _several_per_row(t) -> bool:
    """[B, S] with S not known to be 1."""
    return isinstance(t, TensorVal) and t.shape is not None and not t.shape.variadic and len(t.shape.dims) == 2 \
        and dim_value(t.shape.dims[1]) != 1


def _fresh_zeros(t) -> bool:
    """A buffer fresh from a constructor: zeros, or one constant meaning "nothing here yet" (a range image's -1
    or inf). Ones are a mask's start more often than a buffer's; uninitialised memory (`empty_like(perm)`) is
    written where every position is meant to be written once, an inverse permutation's buffer, or where any
    write may win (`inv.new_empty(n).scatter_(0, inv, arange)`: some member of each cluster)."""
    return isinstance(t, TensorVal) and t.filled in ("zeros", "full")


def _per_entry(value, node) -> bool:
    """A tensor of values (not a number, not a 0-d tensor) that is not all ones/zeros by construction."""
    if not isinstance(value, TensorVal) or (value.shape is not None and not value.shape.variadic and not value.shape.dims):
        return False
    if isinstance(node, ast.Call):  # torch.ones_like(ids), x.new_ones(n): the same value everywhere
        func = node.func
        name = func.attr if isinstance(func, ast.Attribute) else func.id if isinstance(func, ast.Name) else ""
        if name in ("ones", "ones_like", "new_ones", "zeros", "zeros_like", "new_zeros", "full", "full_like", "new_full"):
            return False
    return value.dtype != "bool"


def _components(key) -> list:
    """The index tensors of a subscript key: slices, `...` and numbers keep whole axes or one position of an
    axis (`bev[:, cells] = v` writes columns, `grid[0, :, cells] = v` columns of one plane), so positions
    collide where the tensors' entries do."""
    items = list(key.elts) if isinstance(key, ast.Tuple) else [key]
    return [k for k in items if not isinstance(k, ast.Slice) and not (isinstance(k, ast.Constant) and (
        k.value is Ellipsis or type(k.value) is int))]


def _without_accumulate(args, kwargs) -> bool:
    """`index_put_(indices, v)` / `put_(index, v)` (accumulate third): accumulate=False, given or by default."""
    accumulate = kwargs.get("accumulate", args[2] if len(args) > 2 else Literal(False))
    return isinstance(accumulate, Literal) and accumulate.value is False


def _mentions(node, index_nodes) -> bool:
    """The written values use a name the positions are made of: `x[ids] = ids.float()`, `table[ids]`."""
    names = {n.id for c in index_nodes for n in ast.walk(c) if isinstance(n, ast.Name)}
    return any(isinstance(n, ast.Name) and n.id in names for n in ast.walk(node))


def _several_along(index: TensorVal, dim) -> bool:
    """The index has (or may have, by a named size) more than one entry along the scattered dim:
    a one-hot's `labels.unsqueeze(1)` has one, and cannot collide within its row."""
    shape = index.shape
    axis = as_int(dim)
    if shape is None or shape.variadic or axis is None:
        return False
    axis = normalize_dim(axis, len(shape.dims))
    if axis is None:
        return False
    size = shape.dims[axis]
    n = dim_value(size)
    return (n is not None and n > 1) or (n is None and size is not None)
