"""Expressions: names, attributes, subscripts, arithmetic with broadcasting, comprehensions."""
from __future__ import annotations

import ast
from dataclasses import replace
from typing import Optional

from . import advanced_index_sites, advanced_indexing, index_values
from . import branches, continuation_slices, maybe_empty, normalised_consumers, repeated_indices, scalars, sequences, table_slices, top_k_filter
from . import binding_kinds, dropped_dims, exact_values, left_padding, permutation_order, signs, value_ranges, written_text
from . import attribute_stores, column_key_lookups, config, data_loaders, modules, numpy_values, passed_tensors, python_types
from . import dict_comprehensions, element_reads, filtered_positions, masked_rows, mirrored_triangles, pairwise_terms, regrown_columns
from . import mask_bounds, running_counts, value_intervals, written_rows, written_windows, flat_positions, literal_sets, shifted_positions, table_mixtures, subscript_rank
from . import distinct_lines, dtype_certainty, linear_terms, list_lengths, present_values, run_starts, sentinel_masks
from . import arange_positions, distribution_values, stacked_parts, symbolic, value_makers
from . import tensor_ops as ops
from ..contract import Domain
from ..dims import Shape, Sym, dim_text, value
from .interp_helpers import EXPR_VISITS, UNKNOWN, _BINOPS, _carry, _is_float, _made_float, _named_arith, _row_of, visit_method
from .modules import InstanceVal
from .numpy_values import ArrayVal
from .names import category_domain, learn_token_ids, remember_token_ids
from .values import DimVal, LayerVal, Literal, QualName, SeqVal, TensorVal, join


class ExpressionMixin:
    """Expressions: names, attributes, subscripts, arithmetic with broadcasting, comprehensions."""

    # ----- expressions --------------------------------------------------------------------------
    def expr(self, node: Optional[ast.AST]):
        if node is None:
            return None
        if self.depth > _MAX_DEPTH:
            return None
        self.depth += 1
        try:
            method = EXPR_VISITS.get((self.__class__, node.__class__), UNKNOWN)
            if method is UNKNOWN:
                method = visit_method(EXPR_VISITS, self.__class__, node.__class__, "expr_")
            if method is None:
                for child in ast.iter_child_nodes(node):
                    if isinstance(child, ast.expr):
                        self.expr(child)
                return None
            return method(self, node)
        finally:
            self.depth -= 1

    def expr_Constant(self, node: ast.Constant):
        v = node.value
        if isinstance(v, int) and not isinstance(v, bool):
            return DimVal(v)
        return Literal(v)

    def _ranges_as_positions(self, slice_node, key):
        """A Python `range(n)` (or `list(range(n))`) in a tensor's key indexes as `torch.arange(n)` does
        (`values[range(B), action]`)."""
        items = slice_node.elts if isinstance(slice_node, ast.Tuple) else [slice_node]
        calls = [value_makers.python_range(self, item) for item in items]
        ranges = [i for i, call in enumerate(calls) if call is not None]
        if not ranges:
            return key
        made = [self.expr(_as_arange(calls[i])) for i in ranges]
        if not isinstance(slice_node, ast.Tuple):
            return made[0]
        values = list(key.items) if isinstance(key, SeqVal) and len(key.items) == len(items) else [None] * len(items)
        for i, item in zip(ranges, made):
            values[i] = item
        return SeqVal(tuple(values))

    def expr_UnaryOp(self, node: ast.UnaryOp):
        operand = self.expr(node.operand)
        if isinstance(node.op, ast.Not) and branches.truth(operand) is not None:
            return Literal(not branches.truth(operand))
        if isinstance(node.op, ast.USub) and isinstance(operand, DimVal) and isinstance(operand.dim, int):
            return DimVal(-operand.dim)
        if isinstance(node.op, ast.USub) and isinstance(operand, Literal) and isinstance(operand.value, float):
            return Literal(-operand.value)
        if isinstance(node.op, (ast.USub, ast.UAdd)) and isinstance(operand, scalars.NumberVal):
            return operand  # -float(d): a float still
        if isinstance(operand, TensorVal) and isinstance(node.op, ast.USub):
            return operand.with_(domain=None, origin="", non_negative=False, signed=True, entries=None)  # -x: below 0 where x is above
        if isinstance(operand, TensorVal):
            result = operand.with_(domain=None, origin="", entries=None,
                                   dtype="bool" if isinstance(node.op, ast.Not) else operand.dtype)
            return exact_values.inverted(operand, result) if isinstance(node.op, ast.Invert) else result
        return None

    def expr_Name(self, node: ast.Name):
        if node.id in self.env:
            found = self.env[node.id]
        elif node.id == "torch":
            found = QualName("torch")
        else:
            found = None
        if found is None or (isinstance(found, TensorVal) and not _is_float(found) and (found.domain is None or (
                (found.domain.size is None or found.domain.bound_only) and not found.domain.category))):
            domain = category_domain(node.id)
            if domain is not None and not binding_kinds.not_repeating_ids(self.function, node.id, self.source.lines):
                old = found.domain if isinstance(found, TensorVal) else None
                if old is not None and old.origin and not old.repeats and not old.bound_only:
                    return found  # values the code made distinct (unique()'s, positions) stay so, whatever the name
                if old is not None:  # how the values were made (a literal naming a value twice) says more than the name
                    origin = old.origin if (old.repeats or old.bound_only) and old.origin else domain.origin
                    # a literal written out knows whether its ids repeat; the name only adds what they are
                    domain = replace(old, origin=origin, category=domain.category, repeats=old.repeats or not old.bound_only)
                return (found or TensorVal()).with_(domain=domain)
        return found

    def expr_Attribute(self, node: ast.Attribute):
        if isinstance(node.value, ast.Name):
            key = f"{node.value.id}.{node.attr}"
            if key in self.env:
                return self.env[key]
        owner = self.expr(node.value)
        attr = node.attr
        if attr == "device" and not isinstance(owner, (QualName, SeqVal, config.DictVal, InstanceVal)):
            return Literal("device:")  # `x.to(src.device)` moves x and keeps its dtype, whatever src is
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
                    return stacked_parts.transposed(owner, written_rows.transposed(
                        "T", owner, owner.with_(shape=Shape(tuple(reversed(dims))), written=None, entries=None)))
                if len(dims) >= 2:
                    return stacked_parts.transposed(owner, owner.with_(shape=Shape(dims[:-2] + (dims[-1], dims[-2])),
                                                                       entries=None))
            if attr in ("T", "mT", "H", "mH"):  # a transpose of unknown shape is still a tensor (`F.mT @ F`)
                return TensorVal(None, owner.dtype)
            if attr == "dtype":
                return Literal("dtype:" + owner.dtype) if owner.dtype else None
            if attr in ("data", "grad"):
                return TensorVal(owner.shape, owner.dtype, owner.domain)
            return None
        if isinstance(owner, SeqVal) and attr in owner.names:
            return owner.items[owner.names.index(attr)]
        if isinstance(owner, config.DictVal) and attr in dict(owner.items):
            return owner.get(Literal(attr))  # cfg.alpha of a SimpleNamespace(alpha=0.25, ...)
        if isinstance(owner, LayerVal) and attr == "weight":
            return owner.weight
        if isinstance(owner, distribution_values.DistVal):
            return distribution_values.attribute(owner, attr)
        if isinstance(owner, InstanceVal) and self.module is not None and owner.facts is not None:
            found = self.module.attributes(owner.class_name, owner.facts).get(f"self.{attr}")
            return found if found is not None else self.module.property_value(self, owner, attr, node)
        return None

    def expr_Subscript(self, node: ast.Subscript):
        owner = self.expr(node.value)
        key = self.expr(node.slice)
        if owner is None and isinstance(node.value, ast.Attribute) and node.value.attr == "shape" \
                and isinstance(key, DimVal) and isinstance(key.dim, int):
            return DimVal(None)  # `imgs.shape[0]` of an unknown imgs: one int (a tensor's or an array's size)
        if isinstance(owner, TensorVal):
            key = self._ranges_as_positions(node.slice, key)
        read = element_reads.element(owner, key)
        if read is not element_reads.NOTHING:
            return repeated_indices.one_column(owner, key, read)  # a literal's column: none of its rows' repeats
        if isinstance(owner, SeqVal):
            k = ops.as_int(key)
            if k is not None and -len(owner.items) <= k < len(owner.items):
                return owner.items[k]
            if isinstance(key, ops.SliceVal):
                bounds = [ops.as_int(v) if v is not None else None for v in (key.lower, key.upper, key.step)]
                if all((v is None) == (b is None) for v, b in zip((key.lower, key.upper, key.step), bounds)):
                    return SeqVal(owner.items[slice(*bounds)])
            return None
        if isinstance(owner, ops.Repeated) and isinstance(key, ops.SliceVal):
            return sequences.sliced_run(owner, key)  # targets[::-1] of a list of like items
        if isinstance(owner, InstanceVal) and self.module is not None:
            return data_loaders.item(self, owner, node, key)  # dataset[i]: its __getitem__
        if isinstance(owner, data_loaders.DatasetVal) and isinstance(key, DimVal):
            return owner.item  # tensor_dataset[i]: one row of each of its tensors
        if isinstance(owner, attribute_stores.GrowingList) and isinstance(node.value, ast.Attribute) \
                and isinstance(node.value.value, ast.Name) and node.value.value.id == "self" and isinstance(key, DimVal):
            return attribute_stores.appended_item(self, node.value.attr)  # self.prev_ks[-1]: what advance() appended
        if isinstance(owner, (modules.LayerList, numpy_values.ArrayVal)):
            # self.layers[0]: every item is the same layer; an array's items and slices keep its dtype
            return owner.element if isinstance(owner, modules.LayerList) else numpy_values.row(owner, key)
        if isinstance(owner, TensorVal):
            too_many = subscript_rank.check(self, node, owner, key)  # GL001: x[ids, :] on an [N] tensor
            crossed = advanced_indexing.check(self, node, owner, key)  # GL017
            advanced_index_sites.check(self, node, owner, key)  # GL008 x[float_key], GL017 x[rows, idx]
            if not too_many:  # torch raises on the rank first: what the values would read is moot
                index_values.check(self, node, owner, key)  # GL004/GL010/GL011: values of another dim, too large
            left_padding.check_pick(self, node, key)  # GL024: x[arange(B), counts - 1] of a left-padded batch
            normalised_consumers.check_pick(self, node, owner, key)  # GL018: probs[arange(B), labels]
            continuation_slices.check(self, node, owner)  # GL007: probs[:, :len(actions)] of cat((prompt, actions))
            table_slices.check(self, node, owner, key)  # GL011: self.pe[:, :x.size(1)] past the table
            picked = masked_rows.counted(self, node, key, crossed or ops.index_tensor(owner, key), owner)  # x[mask]: mask.sum() rows
            picked = regrown_columns.column(self, node, node.value, owner, picked)  # best[:, None]
            picked = written_rows.row(owner, key, picked)  # GL011: a literal's row
            picked = exact_values.sliced(owner, key, picked)  # ids[:n] of written ids: those ids
            picked = exact_values.looked_up(owner, key, picked)  # table[ids] of written table and ids
            picked = mask_bounds.filtered(self, node, key, picked)  # pc[(pc[:, 0] <= x_max) & ...]
            picked = mask_bounds.column(owner, key, picked)  # pc[:, 0] of those rows: within the bounds
            picked = stacked_parts.picked(owner, key, picked)  # triples[:, 1]: the relation column's range
            picked = written_rows.column(self, node, owner, key, picked)  # GL011: a literal table's column
            picked = flat_positions.column(owner, key, picked)  # GL011: coords[:, k] of nonzero()
            picked = running_counts.after_subscript(owner, key, picked)  # GL011: counts[:, -1] only
            picked = dropped_dims.subscripted(owner, key, picked, node)  # GL029: values[:, -1], one per row
            picked = filtered_positions.after(self, node, picked)  # GL011: cols[tensor(kept non-padding positions)]
            picked = repeated_indices.after_mask(picked, key)  # ids[mask] may keep one of a literal's two
            picked = run_starts.picked(owner, key, picked)  # one entry per run of repeat_interleave's copies
            picked = repeated_indices.one_row(owner, key, picked)  # a row of a table repeating across rows
            picked = repeated_indices.one_column(owner, key, picked)  # a column of a table repeating within rows
            picked = repeated_indices.after_new_axes(owner, key, picked)  # idx[:, :, None]: the once-per-line dim
            picked = permutation_order.subscripted(self, node, owner, key, picked)  # GL027: x[perm][perm]
            picked = signs.kept(owner, picked)  # a part of values >= 0 is >= 0
            picked = self._selected_apart_from_fill(node, owner, picked)  # x[x < n] of a fill n: no n left
            picked = written_windows.read(self.writing_loops, node, picked)  # x[:, prev:cur] before x[:, cur] = v
            picked = sentinel_masks.cut_to_a_length(key, picked)  # path[:accept_len]: the padding after it cut off
            picked = arange_positions.part(key, picked)  # pos[:, :n] of arange(512): 511 may be left out
            picked = _guess_kept(owner, picked)  # a part of a tensor whose rank is a guess has a guessed rank
            picked = dtype_certainty.kept(owner, picked)  # x[idx] has x's dtype
            picked = _declared_origin_kept(owner, picked)  # x[j][i] of a commented x: its shape is the comment's
            return column_key_lookups.mark(node, key, picked)  # GL006: [N, 1] ids
        if owner is None:
            index_values.check(self, node, owner, key)
            advanced_index_sites.check(self, node, owner, key)  # GL008, GL017 when the key shows a tensor
        if isinstance(owner, config.DictVal):
            found = owner.get(key)
            if found is None and config.constant_key(key) is None and not isinstance(key, (DimVal, TensorVal)):
                choices = owner.int_values()  # alphabet[base], the key unknown: one of the dict's ints
                if choices is not None:
                    return scalars.ChosenInt(None, choices=choices, origin=f"values of `{self.source.segment(node.value)}`")
            return found
        return None

    def _selected_apart_from_fill(self, node: ast.Subscript, owner: TensorVal, picked):
        """`x[x < n]`, `x[(x != n).nonzero(as_tuple=True)[0]]` of an x filled with n: the entries picked are those
        the mask keeps, and it keeps none that holds the fill."""
        fill, named = present_values.fill_value(owner), present_values.fill_text(owner)
        mask = sentinel_masks.selecting_mask(node.slice, node.value, self.function) if named is not None else None
        if mask is None:
            return picked
        if fill is not None:
            number = lambda n: ops.as_int(self.expr(n))  # noqa: E731
        else:  # a fill of unknown value (`full((n,), n)`): a comparison with that same size decides
            fill, number = 0, lambda n: 0 if _text_of_size(self.expr(n)) == named else None  # noqa: E731
        if sentinel_masks.at_sentinel(mask, node.value, fill, self.function, number=number) is False:
            return present_values.without_fill(picked)
        return picked

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
        made = ops.SliceVal(bound(node.lower), bound(node.upper), bound(node.step))
        made.syntax = node
        if node.lower is not None and node.upper is not None and node.step is None:
            made.span = self._slice_span(node.lower, node.upper)
        return made

    def _slice_span(self, lower: ast.expr, upper: ast.expr):
        """`x[s : s + k]`, `x[s + 1 : s + k + 1]`: bounds that differ by k whatever s is, so k entries (the bounds
        read as sums of terms; what is left of their difference must be one term or a number)."""
        difference = linear_terms.difference(upper, lower)
        if difference is None:
            return None
        term, constant = difference
        if term is None:
            return DimVal(constant) if constant > 0 else None
        size = self.expr(term)
        if not isinstance(size, DimVal) or size.dim is None:
            return None
        if constant == 0:
            return size
        total = symbolic.total([size.dim, constant]) if value(size.dim) is None else value(size.dim) + constant
        return DimVal(total) if total is not None else None

    def expr_Tuple(self, node):
        items = tuple(self.expr(e.value if isinstance(e, ast.Starred) else e) for e in node.elts)
        if any(isinstance(e, ast.Starred) for e in node.elts):
            return sequences.spliced(node.elts, items)  # (*x.shape, n): the known items spread in place
        return SeqVal(items)

    def expr_List(self, node):
        made = self.expr_Tuple(node)  # a list display: isinstance(alpha, list) is certain (python_types)
        return python_types.ListVal(made.items) if type(made) is SeqVal else made

    def expr_BinOp(self, node: ast.BinOp):
        pairwise_terms.note(self, node)  # GL006: `xx + yy - 2 * x @ y.T` builds its [N, M] table on purpose
        left, right = self.expr(node.left), self.expr(node.right)
        symbol = _BINOPS.get(type(node.op))
        if isinstance(node.op, ast.MatMult):
            if isinstance(left, TensorVal) and isinstance(right, TensorVal):
                table_mixtures.check_matmul(self, node, node.left, left, node.right, right)  # GL018
                return signs.joined((left, right), ops.matmul(left, right))
            # a tensor times something unknown is a tensor of unknown shape, never a scalar that keeps a
            # later operand's shape (`M = F.mT @ F`, then `M - q * eye` is not [3, 3])
            return TensorVal(None) if isinstance(left, TensorVal) or isinstance(right, TensorVal) else None
        if isinstance(left, DimVal) and isinstance(right, DimVal):
            if symbol == "/":
                return scalars.quotient(left.dim, right.dim)  # true division of ints is a Python float
            return _dim_arith(left.dim, right.dim, symbol)
        if isinstance(left, SeqVal) or isinstance(right, SeqVal):
            made = sequences.concat(left, right, symbol)
            return made if made is not None else list_lengths.concat(self, node, left, right, symbol)
        if isinstance(left, ops.Repeated) or isinstance(right, ops.Repeated):
            return list_lengths.concat(self, node, left, right, symbol)  # ids + [pad] * (n - len(ids))
        if symbol is None:
            return None
        if symbol == "*" and (product := scalars.known_product(left, right)) is not None:
            return product
        if (number := scalars.known_arith(left, right, symbol)) is not None:
            return number
        if (number := scalars.arith(left, right)) is not None:
            return number
        self._check_broadcast(node, node.left, left, node.right, right, symbol)
        left, right = _tensor_if_made_so(node.left, left, right), _tensor_if_made_so(node.right, right, left)
        result = dtype_certainty.through_operator(left, right, _carry(left, right, ops.binary(left, right, symbol)))
        result = exact_values.combined(left, symbol, right, result)  # mask & other_mask
        result = mask_bounds.both(left, right, symbol, result)  # (x >= lo) & (x <= hi): both bounds
        if symbol == "+":  # a strict triangle plus its transpose holds the triangle's ids
            result = mirrored_triangles.mirrored_sum(self, node, left, right) or result
        if symbol == "%" and isinstance(left, TensorVal) and isinstance(right, DimVal) and isinstance(result, TensorVal) \
                and (value(right.dim) or 0) > 0 or (symbol == "%" and isinstance(right, DimVal) and isinstance(right.dim, Sym)
                                                    and isinstance(result, TensorVal)):
            # Python-style remainder by a positive size: values in [0, n), whatever the sign of the input
            result = result.with_(dtype=left.dtype if isinstance(left, TensorVal) else result.dtype,
                                  domain=Domain(right.dim, origin=f"`% {dim_text(right.dim)}` remainders"))
        result = repeated_indices.through_arith(left, right, symbol, result)
        result = left_padding.minus_one(left, right, symbol, result)  # GL024: counts - 1 of a left-padded batch
        result = permutation_order.through_arith(left, right, result)  # GL027: sorted_logits / temperature
        result = value_ranges.through_arith(left, right, symbol, result, node.lineno, self.source.segment(node))  # GL011
        result = exact_values.plus_at_least_0(left, symbol, right, result)  # GL011: starts known one by one + offsets
        result = signs.through_arith(left, right, symbol, result, self.source.segment(node.right))  # GL014
        result = _still_made_float(left, right, symbol, result)  # GL008: (ids / k) + offsets is still that float
        result = value_intervals.through_arith(node, left, right, result)  # GL011: (1 - u) * N reaches N
        result = running_counts.through_arith(node, left, right, result)  # GL011: mask.cumsum(1) + pad
        result = flat_positions.through_arith(node, left, right, result, self.source.segment(node))  # b * N + i
        result = flat_positions.strided(node, left, right, result)  # GL030: rows * W, to meet `+ cols`
        flat_positions.check_stride(self, node, left, right)  # GL030: rows * H + cols
        result = shifted_positions.through_arith(node, left, right, result)  # GL011: idx + k * block
        result = normalised_consumers.through_arith(left, right, result)  # GL018
        result = dropped_dims.through_arith(left, right, result)  # GL029: x.sum(1) + eps
        result = exact_values.with_bound(result, sized_only_ok=True)  # entries worked out say more than a range
        result = flat_positions.grid_arith(node, left, right, result, self.source.segment(node))  # GL030: b * S + i
        if symbol == "/" and isinstance(result, TensorVal) and result.dtype in ops.FLOAT_DTYPES and not any(
                isinstance(v, TensorVal) and v.dtype in ops.FLOAT_DTYPES for v in (left, right)):
            # `//` there is the fix unless a float literal would keep the result a float
            floor_fixes = not any(isinstance(side, ast.Constant) and isinstance(side.value, float)
                                  for side in (node.left, node.right))
            result = _made_float(result, f"the true division `/` at line {node.lineno}",
                                 self._span(node) if floor_fixes else None)
        elif symbol == "/" and isinstance(result, TensorVal) and result.dtype is None \
                and any(isinstance(v, TensorVal) for v in (left, right)):
            # a tensor's true division is floating whatever its operands' dtypes: which float is not known, so
            # no `//` fix (of a float operand it would still be a float)
            result = _made_float(result, f"the true division `/` at line {node.lineno}")
        return result

    def expr_Compare(self, node: ast.Compare):
        values = [self.expr(node.left)] + [self.expr(c) for c in node.comparators]
        top_k_filter.check(self, node)  # GL021: positions > top_k as a removal mask
        tensors = [v for v in values if isinstance(v, TensorVal)]
        if tensors and len(node.ops) == 1 and not isinstance(node.ops[0], (ast.Is, ast.IsNot, ast.In, ast.NotIn)):
            self._check_broadcast(node, node.left, values[0], node.comparators[0], values[1], "comparison")
            learn_token_ids(self, node, values[0])  # `ids != pad_token_id`: token ids (GL013's repeats)
            made = exact_values.compared(values[0], _COMPARED.get(type(node.ops[0]), ""), values[1],
                                         ops.binary(values[0], values[1], "=="))  # ids == image_id: a known mask
            made = run_starts.compared(node, values[0], values[1], made)  # x[1:] != x[:-1]: where runs start
            made = mask_bounds.compared(node, _COMPARED.get(type(node.ops[0]), ""), values[0], values[1], made,
                                        self.source.segment)  # pc[:, 0] <= x_max: what the rows it keeps hold
            if isinstance(node.ops[0], ast.Eq):  # topk_ids == e: true at most once along the top-k dim
                made = distinct_lines.compared(values[0], values[1], made)
            made = permutation_order.through_arith(values[0], values[1], made)  # cumsum(sorted_probs) > p: sorted order
            return left_padding.compared(values[0], values[1], made)
        if tensors and (passed := passed_tensors.decided_is_none(self, node)) is not None:
            return Literal(passed)  # `if padding_mask is None:` of a mask the caller made: not None there
        if len(node.ops) == 1 and not tensors:
            if values[0] is None:
                remember_token_ids(self, node)  # GL013: `x[rows, ids] -= v` may show ids is a tensor
            decided = branches.compare(values[0], node.ops[0], values[1])
            if decided is None and all(scalars.is_number(v) for v in values) \
                    and isinstance(node.ops[0], (ast.Lt, ast.LtE, ast.Gt, ast.GtE, ast.Eq, ast.NotEq)):
                return scalars.BoolVal()  # `random.random() < 0.1`: a bool, its value not known
            return decided
        if len(node.ops) > 1 and not tensors:  # `0 <= c < n`: each link decided, or the chain is not
            links = [branches.truth(branches.compare(a, op, b)) for a, op, b in zip(values, node.ops, values[1:])]
            return Literal(False) if False in links else Literal(True) if all(links) else None
        return None

    def expr_BoolOp(self, node: ast.BoolOp):
        return branches.bool_op(node.op, [self.expr(v) for v in node.values])

    def expr_IfExp(self, node: ast.IfExp):
        certain = branches.truth(self.expr(node.test))
        if certain is not None:  # `None if alpha is None else torch.tensor(alpha)` with alpha known
            return self.expr(node.body if certain else node.orelse)
        in_body, in_else = self._ruled_out(node.test)  # `table[t] if t < len(table) else last`: t below there
        if not in_body and not in_else:
            return join(self.expr(node.body), self.expr(node.orelse))
        before = dict(self.env)
        self._without_values(in_body)
        body = self.expr(node.body)
        self.env = dict(before)
        self._without_values(in_else)
        orelse = self.expr(node.orelse)
        self.env = before
        return join(body, orelse)

    def expr_NamedExpr(self, node: ast.NamedExpr):
        result = self.expr(node.value)
        self.assign(node.target, result)
        return result

    def expr_Yield(self, node: ast.Yield):
        """A generator's item: what the generator hands each `for` over it (calls.result_of)."""
        self.yields.append(self.expr(node.value) if node.value is not None else Literal(None))
        return None  # the value sent back in: none

    def expr_YieldFrom(self, node: ast.YieldFrom):
        self.expr(node.value)
        self.yields.append(None)  # items of another iterable: not tracked
        return None

    def expr_Lambda(self, node: ast.Lambda):
        return None  # its parameters are unknown; its body runs elsewhere

    def _comprehension(self, node):
        mapped = dict_comprehensions.mapped(self, node) if isinstance(node, ast.DictComp) else None
        if mapped is not None:
            return mapped  # {k: v.to(dtype) for k, v in batch.items()}: each item mapped
        exact = literal_sets.comprehension(self, node)
        if exact is not None:
            return exact  # {n for edge in records for n in edge} of written ids: the distinct ones
        listed = self._item_by_item(node)
        if listed is not None:
            return listed  # [r[0] for r in records] of records written out: each item's value
        saved = dict(self.env)
        iterables, evaluated = [], []
        for gen in node.generators:
            iterable = data_loaders.as_items(self.expr(gen.iter))  # a TensorDataset: its rows
            # zip(a, b) / enumerate(a) evaluate to a stand-in holding the sequences, not the items: counted apart
            iterables.append(None if _zipped(gen.iter) else iterable)
            evaluated.append(iterable)
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
        if isinstance(node, (ast.ListComp, ast.GeneratorExp)) and (modules.is_layer(element) or isinstance(element, InstanceVal)):
            return ops.Repeated(element)  # nn.ModuleList(nn.Linear(d, d) for _ in range(n))
        if isinstance(node, (ast.ListComp, ast.GeneratorExp)) and isinstance(element, SeqVal) and not element.names \
                and any(isinstance(item, TensorVal) for item in element.items):
            return ops.Repeated(element)  # [(x, y) for _ in range(n)]: `for x, y in batches` gets each pair
        if isinstance(node, ast.ListComp) and len(node.generators) == 1 and not node.generators[0].ifs:
            listed = written_text.mapped(iterables[0], element)  # [vocab[w] for w in text.split()]
            if listed is not None:
                return listed
        one_loop = len(node.generators) == 1 and not node.generators[0].ifs
        counted = self._iteration_count(node.generators[0], evaluated[0]) if one_loop else None
        if isinstance(node, ast.ListComp) and one_loop:
            listed = sequences.listed_data(counted, element)
            if listed is not None:
                return listed  # [[0.1] * 8 for _ in range(40)]: forty lists of eight floats
        if isinstance(node, (ast.ListComp, ast.GeneratorExp)) and isinstance(element, ArrayVal) and element.dtype:
            return ops.Repeated(element)  # [np.array(Image.open(p)) for p in paths]: each item's dtype
        # how many items a one-loop comprehension without a filter makes: its iterable's, when known (a Repeated
        # of one, `random.sample(buffer, n)`, a tracked list, `range(n)`)
        length = (iterables[0].length if isinstance(iterables[0], ops.Repeated) else counted) if one_loop else None
        if isinstance(node, (ast.ListComp, ast.GeneratorExp)) and scalars.is_float_number(element):
            return ops.Repeated(scalars.NumberVal(), length)  # [it["center"] for it in items]
        if isinstance(node, ast.ListComp) and isinstance(element, DimVal) and not any(gen.ifs for gen in node.generators):
            # [b["label"] for b in batch]: Python ints, one per item (0s and 1s, when each is int() of a bool; one
            # of a dict's ints, when each is a lookup of it)
            kept = isinstance(element, (scalars.FlagInt, scalars.ChosenInt))
            return ops.Repeated(element if kept else DimVal(None), length)
        if isinstance(node, ast.ListComp) and isinstance(element, ops.Repeated) and isinstance(element.element, scalars.ChosenInt) \
                and not any(gen.ifs for gen in node.generators):
            return ops.Repeated(element, length)  # [[alphabet[b] for b in s] for s in seqs]: rows of chosen ints
        if isinstance(node, ast.ListComp) and scalars.is_bool(element) and not any(gen.ifs for gen in node.generators):
            return ops.Repeated(scalars.BoolVal(), length)  # [d for (.., d) in batch]: done flags
        if isinstance(node, ast.ListComp) and (not isinstance(element, TensorVal) or element.shape is None and element.dtype is None
                                               and any(gen.ifs for gen in node.generators)):
            return maybe_empty.filtered(node, element, self.source.segment)  # items of unknown kind: a filtered list may be empty
        # a generator of tensors is unpacked (`q, k, v = (proj(x) for proj in projs)`) or stacked like a list
        return ops.Repeated(element, length) if isinstance(node, (ast.ListComp, ast.GeneratorExp)) and isinstance(element, TensorVal) else None

    expr_ListComp = expr_SetComp = expr_GeneratorExp = expr_DictComp = _comprehension

    def _iteration_count(self, generator, iterable):
        """How many rounds one `for` (of a comprehension, or a statement) makes (sequences.iteration_count), range's
        bounds evaluated."""
        source = generator.iter
        ranged = [self.expr(a) for a in source.args] if isinstance(source, ast.Call) and isinstance(source.func, ast.Name) \
            and source.func.id == "range" else []
        return sequences.iteration_count(iterable, source, ranged)

    def mapped_by_lambda(self, function, iterable):
        """`map(lambda t: body, items)`: what the generator `(body for t in items)` gives."""
        if not isinstance(function, ast.Lambda) or len(function.args.args) != 1 or function.args.vararg \
                or function.args.kwarg or function.args.kwonlyargs or function.args.posonlyargs:
            return None
        loop = ast.comprehension(target=ast.Name(id=function.args.args[0].arg, ctx=ast.Store()), iter=iterable,
                                 ifs=[], is_async=0)
        return self._item_by_item(ast.GeneratorExp(elt=function.body, generators=[loop]))

    def mapped_by_callable(self, call: ast.Call, function, iterable):
        """`map(f, items)` of a named callable: what the generator `(f(item) for item in items)` gives."""
        item = ast.Name(id=_MAPPED_ITEM, ctx=ast.Load())
        applied = ast.Call(func=function, args=[item], keywords=[])
        loop = ast.comprehension(target=ast.Name(id=_MAPPED_ITEM, ctx=ast.Store()), iter=iterable, ifs=[], is_async=0)
        generator = ast.GeneratorExp(elt=applied, generators=[loop])
        for made in (item, applied, loop.target, generator):
            ast.copy_location(made, call)
            made.end_lineno, made.end_col_offset = call.end_lineno, call.end_col_offset
        return self.expr(generator)

    def _item_by_item(self, node):
        """A list comprehension (or a generator, read by `max(...)` and its kin) over a list the analysis knows
        item by item (a few dozen records written out), one loop, no filter, a name as target: the list of what
        the element is for each item, when every one is an int or a list of a known length (`[randint(0, V,
        (n,)).tolist() for n in lengths]`: one list per length)."""
        if not isinstance(node, (ast.ListComp, ast.GeneratorExp)) or len(node.generators) != 1 or node.generators[0].ifs \
                or not isinstance(node.generators[0].target, ast.Name):
            return None
        source = self.expr(node.generators[0].iter)
        if type(source) not in (SeqVal, python_types.ListVal) or source.names or not 0 < len(source.items) <= _MOST_ITEMS:
            return None
        # `q, k, v = (t.transpose(1, 2) for t in (q, k, v))`: a display of tensors is mapped one tensor at a time,
        # so each name keeps its own shape and dtype instead of what all of them share
        tensors = isinstance(node.generators[0].iter, (ast.Tuple, ast.List)) and len(source.items) <= _MOST_TENSORS \
            and all(isinstance(item, TensorVal) for item in source.items)
        name, saved, made = node.generators[0].target.id, dict(self.env), []
        for item in source.items:
            self.env[name] = item
            value_ = self.expr(node.elt)
            # an int of unknown value still counts one item (`tuple(shape[i] for i in order)`: as many sizes)
            if not (isinstance(value_, DimVal) or sequences.sized(value_) or tensors and isinstance(value_, TensorVal)):
                made = None
                break
            made.append(value_)
        self.env = saved
        return python_types.ListVal(tuple(made)) if made else None



def _declared_origin_kept(owner, picked):
    """A part of a tensor whose shape a comment or docstring declared has its shape from that declaration too."""
    if isinstance(picked, TensorVal) and not picked.origin and (owner.origin or "").startswith(("comment", "docstring")):
        return picked.with_(origin=owner.origin)
    return picked


def _zipped(node: ast.expr) -> bool:
    return isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in ("zip", "enumerate")


_MAPPED_ITEM = "<mapped item>"  # the loop name `map(f, items)` is read with: no Python name can be it

def _still_made_float(left, right, symbol, result):
    """A float the code made (a true division) plus, minus or times integers is still that float."""
    if symbol not in ("+", "-", "*") or not isinstance(result, TensorVal) \
            or (result.domain is not None and result.domain.made_float):
        return result
    made = [v for v in (left, right) if isinstance(v, TensorVal) and _is_float(v) and v.domain is not None
            and v.domain.made_float]
    others = [v for v in (left, right) if isinstance(v, TensorVal) and v not in made]
    if not made or any(_is_float(v) for v in others):
        return result  # a float operand of its own (a weight, a score) makes the sum a float anyway
    if not _is_float(result):
        if result.dtype is not None:
            return result
        result = result.with_(dtype=made[0].dtype)  # a float plus a tensor of unknown dtype is a float
    return _made_float(result, made[0].domain.made_float, made[0].domain.made_float_at)


_MAX_DEPTH = 200  # deeper expressions are left unknown instead of overflowing the stack


_UNKNOWN_BOUND = Literal("<unknown slice bound>")


def _dim_arith(a, b, symbol):
    va, vb = value(a), value(b)
    if va is not None and vb is not None:
        try:
            result = {"+": va + vb, "-": va - vb, "*": va * vb, "//": va // vb if vb else None, "%": va % vb if vb else None,
                      "**": va ** vb if isinstance(vb, int) and 0 <= vb <= 8 else None}.get(symbol)
        except TypeError:
            result = None
        return DimVal(result) if isinstance(result, int) else None
    named = _named_arith(a, b, symbol)
    # ints in, an int out, its value unknown (`i % 5` in a loop): still a Python int, not anything at all
    return named if named is not None or symbol not in _INT_RESULTS else DimVal(None)


_INT_RESULTS = ("+", "-", "*", "//", "%")


def _guess_kept(owner: TensorVal, picked):
    """`codes[start:end]` of `codes = table[:n] - offsets` (table unknown, offsets [n_codebook]): the difference is
    [n_codebook] only as a guess (the unknown operand may bring leading dims, Shape.guessed), and a slice, a row
    or a pick of it is as much a guess: the rank read off the key is counted from the guessed rank. A part of a
    tensor whose shape a docstring told is told by it too (`row = batch[i]` of a documented batch, subscript_rank)."""
    if isinstance(picked, TensorVal) and owner.shape is not None and owner.shape.guessed \
            and picked.shape is not None and not picked.shape.guessed:
        return picked.with_(shape=replace(picked.shape, guessed=True))
    if isinstance(picked, TensorVal) and not picked.origin and subscript_rank.told_in_prose(owner):
        return picked.with_(origin=owner.origin)
    return picked


def _tensor_if_made_so(node, found, other):
    """An unknown operand beside a tensor that adds dims to broadcast (`proposals[:, :, :, None] / dim_t`,
    `x.unsqueeze(1) * w`) is a tensor of a shape not known, and so is the result: the known operand's shape
    is not it. Other unknown operands keep the known one's shape (`x * scale`, `layer(x) + residual`)."""
    if found is None and isinstance(other, TensorVal) and _adds_dims(node):
        return TensorVal()
    return found


def _adds_dims(node) -> bool:
    if isinstance(node, ast.Subscript):
        items = node.slice.elts if isinstance(node.slice, ast.Tuple) else [node.slice]
        return any(isinstance(item, ast.Constant) and item.value is None for item in items)
    return isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr in ("unsqueeze", "unsqueeze_")


def _as_arange(call: ast.Call) -> ast.Call:
    """`torch.arange(...)` with range(...)'s arguments, at its place in the file."""
    made = ast.Call(ast.Attribute(ast.Name("torch", ast.Load()), "arange", ast.Load()), call.args, [])
    for new in (made, made.func, made.func.value):
        ast.copy_location(new, call)
        new.end_lineno, new.end_col_offset = call.end_lineno, call.end_col_offset
    return made


_COMPARED = {ast.Eq: "==", ast.NotEq: "!=", ast.Lt: "<", ast.LtE: "<=", ast.Gt: ">", ast.GtE: ">="}  # masks exact_values works out
_MOST_ITEMS = 64  # records written out one by one in a driver, not a dataset
_MOST_TENSORS = 8  # `for t in (q, k, v)`: a few tensors named in a display


def _text_of_size(v) -> Optional[str]:
    return dim_text(v.dim) if isinstance(v, DimVal) and v.dim is not None else None
