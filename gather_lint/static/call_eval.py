"""Calls: tensor methods and torch functions, the family's own sites, module functions and layers."""
from __future__ import annotations

import ast
from dataclasses import replace
from typing import Dict, Optional

from . import broadcast_axis, cut_rows, broadcast_sites, dynamic_dispatch, maybe_empty, normalised_axis, pad_shape, scalars, sequences, symbolic
from . import constant_fills, declared_index_dtypes, packed_sequences, sentinel_masks, shift_evidence, written_text
from . import autograd_ctx, op_counts, op_dims, dropped_dims, exact_values, inferred_widths, left_padding, mask_writes, masked_rows, permutation_order, signs
from . import distinct_lines, stacked_parts, view_sizes
from . import class_lineage, class_targets, closure_facts, config, constant_ids, einsum, embedding_lookups, group_overwrites, index_values, \
    modules, normalised_consumers, numpy_values, python_annotations, python_types, repeated_indices, sequence_items, tensor_lists, value_ranges
from . import arange_positions, dtype_certainty, dict_items, index_put_dtypes, passed_tensors, unchanged_writes, distribution_values, head_columns, named_tuples, own_max_sizes
from . import bool_results, keyword_aliases, mask_bounds, regrown_columns, unreduced_losses, running_counts, value_intervals, written_rows
from . import refused_calls
from . import advanced_index_sites, attribute_stores, data_loaders, python_stdlib, flat_positions, image_reads, literal_sets, present_values, shifted_positions, table_mixtures, unfold_shape
from . import further_ops, functional_results, op_census, python_results, tensor_ops as ops  # noqa: F401 (python_results: its entries)
from ..contract import Domain, sizes_by_name
from ..rules import check
from .statements import quietly
from ..dims import Shape, Sym, dim_text, normalize_dim, value
from .calls import value_facts
from .interp_helpers import _carry, _einops_groups, _is_float, _literal_shape, _made_float, _negative, _size_args, _with_sentinel, \
    padding_of_literal, scalar_list_shape
from .modules import InstanceVal
from .numpy_values import ArrayVal
from .sites import bind_call, build_site, resolve_op, result_of
from .values import UNKNOWN_ARITY, DimVal, LayerVal, Literal, QualName, SeqVal, TensorVal


class CallMixin:
    """Calls: tensor methods and torch functions, the family's own sites, module functions and layers."""

    def expr_Call(self, node: ast.Call):
        resolved = resolve_op(node, self._peek)
        if resolved is not None:
            op, method, receiver = resolved
            if refused_calls.check(self, node, op, method, receiver):  # GL033: torch's parser refuses it
                return None
            bound = bind_call(op, method, receiver, node)
            if bound is not None:
                built = build_site(op, bound, self.expr, self.source.segment)
                if built is not None:
                    site, values = built
                    if op_census.active is not None:  # benchmarks/op_coverage.py
                        op_census.site(node, method, op.name, values.get("input"))
                    dtype_certainty.mark(site, values)  # GL016: which float32 the code makes for certain
                    own_max_sizes.check_site(self, node, site, bound)  # GL011: zeros(.., ids.max()) written at ids
                    with sizes_by_name(bool(self.facts_from_calls)):  # a fix right for every caller
                        violations = check(site)
                    violations = shift_evidence.kept(self, site, bound, violations)  # GL007: logits and labels
                    violations = declared_index_dtypes.restated(self, site, bound, violations)  # GL008: annotation
                    violations = autograd_ctx.own_backward(self, violations)  # GL009: a crop a Function means
                    self.report(node, site, violations, bound, self)
                    if not normalised_axis.check(self, node, site, bound):  # GL018, its softmax found by syntax
                        normalised_consumers.check_gather(self, node, site, bound, values)  # or by its mark
                    broadcast_axis.check(self, node, site, bound, values)  # GL019
                    cut_rows.check(self, node, site, bound)  # GL003: src rows cut from the index's own entries
                    flat_positions.check_site(self, node, site, bound, values)  # GL030: grid rows with another stride
                    unchanged_writes.check_call(self, node, op, bound, values)  # GL032: ones written into ones
                    self._check_op_rmw(node, op, bound, values)
                    self._check_overwriting_op(node, op, bound, values)
                    if op.name == "gather":
                        left_padding.check_gather(self, node, values.get("index"), site.dim)  # GL024
                    if any(v.code in _ALWAYS_RAISE for v in violations):
                        return None  # torch raises at this call: no value flows on, and nothing downstream is checked
                    result = stacked_parts.forgotten(dtype_certainty.kept(values.get("input"), result_of(site, values)))
                    result = permutation_order.gathered(site, values.get("input"), values.get(op.index_param),
                                                        result)  # GL027: x.gather(1, perm) is in perm's order
                    return result.with_(kept_at=node) if result is not None and result.kept_singleton is not None else result
        return left_padding.tokenized(self, node, self._call(node))  # GL024: a tokenizer padding on the left

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
                return self._qualified_call(layer.name, node, args, unreduced_losses.called_with(layer, kwargs))
            if modules.is_layer(layer):
                return self._apply_layer(layer, node, self._args(node)[0])
            if isinstance(layer, InstanceVal) and self.module is not None:
                args, kwargs = self._args(node)
                return self._call_instance(layer, node, args, kwargs)
            if func.value.id == "self" and func.attr == "register_buffer" and len(node.args) >= 2 \
                    and isinstance(node.args[0], ast.Constant) and isinstance(node.args[0].value, str):
                self.env[f"self.{node.args[0].value}"] = dtype_certainty.uncertain(self.expr(node.args[1]))
                return None
            if func.value.id == "self" and self.module is not None and self.class_name and key not in self.env:
                callee = self.module.methods.get((self.class_name, func.attr))
                if callee is not None and self.instance is None \
                        and class_lineage.overridden_below(self.module, self.class_name, func.attr):
                    callee = None  # no instance known: a subclass's override may be the one that runs
                if callee is not None:
                    args, kwargs = self._args(node)
                    if not class_lineage.binds_first(callee):  # self.f(x) of a @staticmethod: x is its first
                        return self._call_module_function(callee, node, args, kwargs)
                    result = self._call_module_function(callee, node, [None] + args, kwargs, skip_first=True)
                    for name in attribute_stores.stored_names(callee):  # `self.step()` rebinds self.score:
                        self.env[f"self.{name}"] = None  # what this method held of it is stale
                    return result
            if func.attr == "apply" and func.value.id in getattr(self.module, "classes", {}):
                applied = autograd_ctx.applied(self, node, *self._args(node))  # Fn.apply(x): forward, then backward
                if applied is not None:
                    return applied
            callee = class_lineage.through_class(self, func) if key not in self.env else None
            if callee is not None:  # Ops.f(x), cls.f(x): the class's static or class method
                args, kwargs = self._args(node)
                if class_lineage.binds_first(callee):  # a @classmethod's `cls`
                    return self._call_module_function(callee, node, [None] + args, kwargs, skip_first=True)
                return self._call_module_function(callee, node, args, kwargs)
        dispatched = dynamic_dispatch.self_method(self, func) if isinstance(func, ast.Call) and self.class_name else None
        if dispatched is not None and self.module is not None:  # getattr(self, mode)(inputs)
            callee = self.module.methods.get((self.class_name, dispatched))
            if callee is not None:
                args, kwargs = self._args(node)
                return self._call_module_function(callee, node, [None] + args, kwargs, skip_first=True)
        if isinstance(func, ast.Attribute) and self.module is not None and class_lineage.is_super_init(node):
            class_lineage.run_parent_init(self, *self._args(node))
            return None
        if isinstance(func, ast.Attribute):
            owner = self.expr(func.value)
            args, kwargs = self._args(node)
            if func.attr == "masked_scatter_":
                group_overwrites.check_masked_scatter(self, node)  # GL013: one buffer written per group
            if func.attr in ("masked_scatter_", "masked_scatter"):
                exact_values.check_masked_scatter(self, node, owner, args)  # GL003: fewer values than positions
            if func.attr == "append" and isinstance(owner, attribute_stores.GrowingList) and len(args) == 1:
                attribute_stores.record_append(self, node, args[0])  # read back by another method (appended_item)
                self.env[_list_name(func.value)] = ops.Repeated(args[0]) if args[0] is not None else None
                return None  # self.buffer.append(transition): the list holds what this append adds
            if func.attr == "append" and isinstance(owner, (SeqVal, ops.Repeated)) and _list_name(func.value):
                # xs.append(x), self.buffer.append(transition): a list of like items while they agree
                self.env[_list_name(func.value)] = tensor_lists.appended(owner, args[0]) if len(args) == 1 else None
                return None
            if written_text.is_text(owner):
                return written_text.method(owner, func.attr, args, kwargs)  # " ".join(words), text.split()
            if isinstance(owner, TensorVal) and func.attr in tensor_lists.CHUNKING:  # a, b = x.chunk(2, dim=-1)
                op_dims.check(self, node, func.attr, owner, args, kwargs)
                result = tensor_lists.chunks(owner, args, kwargs, func.attr)
                return result if op_census.active is None else op_census.method(node, func.attr, result)
            if isinstance(owner, SeqVal) and func.attr in sequences.MUTATORS and isinstance(func.value, ast.Name):
                self.env[func.value.id] = None  # shape.append(d): the list's length is no longer known
                return None
            if isinstance(owner, config.DictVal) and func.attr == "get" and not kwargs:
                return dict_items.get(owner, args)
            if isinstance(owner, config.DictVal) and func.attr in ("values", "items") and not args and not kwargs:
                return dict_items.looped(owner, func.attr)  # for name, t in batch.items()
            if isinstance(owner, config.DictVal) and func.attr in config.MUTATORS and isinstance(func.value, ast.Name):
                self.env[func.value.id] = None
            if isinstance(owner, TensorVal):
                kwargs = keyword_aliases.canonical(kwargs)  # x.max(-1, keepdims=True)
                if func.attr == "squeeze" and not node.args and not node.keywords:
                    self._check_squeeze_all(node, func.value, owner)
                if (func.attr in _ARITH_METHODS or func.attr == "masked_select") and len(node.args) == 1:
                    self._check_broadcast(node, func.value, owner, node.args[0], args[0], f".{func.attr}()")
                result = self._tensor_op(node, func.attr, owner, args, kwargs, func.value)
                result = regrown_columns.column(self, node, func.value, owner, result, func.attr)  # max(1)[0].unsqueeze(1)
                if func.attr in ("put_", "put"):
                    self._check_put(node, owner, args, kwargs)  # GL013: flat positions written once each
                if func.attr in ("index_put_", "index_put"):
                    self._check_index_put(node, owner, args, kwargs)
                    advanced_index_sites.check_put_keys(self, node, owner, args)  # GL008: its keys are subscript keys
                    index_put_dtypes.check_call(self, node, owner, args)  # GL016: values of another dtype
                result = _carry(owner, args[0] if func.attr in _ARITH_METHODS and args else owner, result)
                return result if op_census.active is None else op_census.method(node, func.attr, result)
            if isinstance(owner, distribution_values.DistVal):
                return distribution_values.method(self, node, owner, func.attr, args, kwargs)
            if isinstance(owner, QualName):
                return self._qualified_call(f"{owner.name}.{func.attr}", node, args, kwargs)
            if isinstance(owner, image_reads.PilImage):
                return image_reads.method(owner, func.attr, node)
            if isinstance(owner, ArrayVal) or (owner is None and func.attr == "astype"):
                # `.astype(np.uint8)` names its result's dtype whatever array it converts (tensors have no astype)
                return numpy_values.method(func.attr, owner, args, kwargs, node)
            if isinstance(owner, InstanceVal) and self.module is not None:
                return self._call_method(owner, func.attr, node, args, kwargs)
            if owner is None and (func.attr in bool_results.COMPARISONS or func.attr in bool_results.PREDICATES):
                return bool_results.method(func.attr, None, args, kwargs)  # mask.eq(255): bool whatever mask is
            if owner is None and func.attr in ("argmax", "argmin") and _picks_rows(args, kwargs):
                # scores.argmax(1): int64 positions, one pick per row, whatever the receiver (numpy's too)
                return repeated_indices.after_method(func.attr, TensorVal(), TensorVal(None, "int64", Domain()), node)
            if owner is None and func.attr in ops.NORMS:
                return TensorVal(non_negative=True)  # state.forces.norm(dim=1) of an unknown receiver: >= 0 (GL014)
            if owner is None and func.attr in _SHAPE_FROM_ARGS:
                # x.view(B, T, 1) says the result's whole shape, x.to(torch.int32) its dtype, whatever x was
                result = ops.apply_method(func.attr, TensorVal(), args, kwargs, "")
                result = repeated_indices.after_method(func.attr, TensorVal(), result, node)
                return result if isinstance(result, TensorVal) and (result.shape or result.dtype) else None
            return None
        namespace = config.namespace_class(node, self.expr)
        if namespace is not None:
            return namespace
        target = self.expr(func)
        if isinstance(func, ast.Name) and isinstance(target, TensorVal) and self.env.get(func.id) is None:
            target = None  # `build_target(...)` is a call, not ids named by their spelling (names.py)
        args, kwargs = self._args(node)
        if isinstance(func, ast.Name) and func.id == "self" and target is None and self.instance is not None:
            target = self.instance  # self(x) inside a method of a known instance: its forward
        if isinstance(target, QualName):
            return self._qualified_call(target.name, node, args, unreduced_losses.called_with(target, kwargs))
        if self.module is not None and (isinstance(target, InstanceVal) or modules.is_layer(target)):
            return self._call_instance(target, node, args, kwargs)
        if isinstance(func, ast.Name) and target is None and self.module is not None and func.id not in self.params \
                and func.id in self.module.classes and not any(isinstance(a, ast.Starred) for a in node.args):
            if named_tuples.is_named_tuple(self.module.classes[func.id]):
                return named_tuples.build(self.module.classes[func.id], args, kwargs, self.expr)  # Output(logits=x)
            return self.module.instantiate(func.id, args, kwargs)
        if isinstance(func, ast.Name) and target is None and self.module is not None and func.id not in self.params:
            callee = closure_facts.local_callee(self, func.id) or self.module.functions.get(func.id)
            if callee is not None:
                return self._call_module_function(callee, node, args, kwargs)
        if isinstance(func, ast.Name) and func.id == "dict" and target is None and not args and _UNKNOWN_KWARGS not in kwargs:
            return config.keyword_dict(kwargs)
        if isinstance(func, ast.Name) and func.id == "zip" and len(node.args) == 1 and isinstance(node.args[0], ast.Starred):
            return tensor_lists.transposed(self.expr(node.args[0].value))  # s, a, r = zip(*batch)
        if isinstance(func, ast.Name) and func.id in ("zip", "enumerate"):
            return SeqVal(tuple(args)) if func.id == "zip" else SeqVal((None, args[0] if args else None))
        if isinstance(func, ast.Name) and func.id in ("iter", "next") and target is None:
            return data_loaders.iterated(func.id, args)  # next(iter(loader)): one batch
        if isinstance(func, ast.Name) and func.id in ("set", "frozenset", "sorted") and target is None:
            return literal_sets.call(func.id, args, kwargs)  # distinct / ordered written ints
        if isinstance(func, ast.Name) and func.id in ("list", "tuple") and len(node.args) == 1 and not kwargs \
                and isinstance(node.args[0], ast.Call) and isinstance(node.args[0].func, ast.Name) \
                and node.args[0].func.id == "range" and target is None:
            return sequences.listed_range(self._args(node.args[0])[0])  # list(range(10, 50)): 40 known ints
        if isinstance(func, ast.Name) and func.id in sequences.SEQUENCE_COPIES:
            return sequences.copy_of(args, kwargs)
        if isinstance(func, ast.Name) and func.id == "map" and target is None and len(node.args) == 2 and not kwargs:
            mapped = self.mapped_by_lambda(node.args[0], node.args[1])  # q, k = map(lambda t: t.float(), (q, k))
            if mapped is not None:
                return mapped
            if isinstance(node.args[0], (ast.Name, ast.Attribute)):  # map(torch.IntTensor, rows): f(x) for each x
                return self.mapped_by_callable(node, node.args[0], node.args[1])
        if isinstance(func, ast.Name) and func.id == "slice" and target is None and not node.keywords \
                and 1 <= len(node.args) <= 3 and not any(isinstance(a, ast.Starred) for a in node.args):
            return self.expr_Slice(_slice_node(node.args))  # span = slice(a, b): x[span] is x[a:b]
        if isinstance(func, ast.Name) and func.id == "reversed" and target is None:
            if len(args) == 1 and not kwargs and isinstance(args[0], TensorVal):  # iterates the rows last first
                return exact_values.after_method("flip", args[0], [DimVal(0)], {},
                                                 ops.apply_method("flip", args[0], [DimVal(0)], {}, ""))
            return sequences.reversed_of(args, kwargs)
        if isinstance(func, ast.Name) and func.id == "isinstance" and target is None and len(node.args) == 2:
            decided = passed_tensors.decided_isinstance(self, node)  # a tensor the caller made is no list
            if decided is not None:
                return Literal(decided)
            return python_types.isinstance_of(args[0], node.args[1])  # `if isinstance(alpha, float):` decided
        if isinstance(func, ast.Name) and func.id in ("max", "min") and args and not kwargs:
            # max(1, int(n * 0.5)), or max(lengths) of one list of known ints
            numbers = args[0].items if len(args) == 1 and isinstance(args[0], SeqVal) and not args[0].names else args
            if len(numbers) >= (1 if len(args) == 1 else 2) and all(
                    isinstance(a, DimVal) and value(a.dim) is not None for a in numbers):
                return DimVal((max if func.id == "max" else min)(value(a.dim) for a in numbers))
        if isinstance(func, ast.Name) and func.id == "sum" and len(args) == 1 and not kwargs and target is None \
                and isinstance(args[0], SeqVal) and not args[0].names \
                and all(isinstance(a, DimVal) and value(a.dim) is not None for a in args[0].items):
            return DimVal(sum(value(a.dim) for a in args[0].items))  # sum(x.shape): 0 for a 0-d x
        if isinstance(func, ast.Name) and func.id == "round" and len(args) == 1 and not kwargs and target is None:
            return python_stdlib.rounded(args[0])  # round(width / TILE): an int, its value known with the float's
        if isinstance(func, ast.Name) and func.id == "float" and len(args) == 1 and not kwargs and target is None:
            if isinstance(args[0], DimVal) and isinstance(value(args[0].dim), int):
                return Literal(float(value(args[0].dim)))
            return args[0] if isinstance(args[0], Literal) and isinstance(args[0].value, float) else scalars.NumberVal()
        if isinstance(func, ast.Name) and func.id in ("hash", "ord") and len(args) == 1 and not kwargs and target is None:
            return DimVal(None)  # a Python int, its value unknown (`hash(w) % vocab` is a token id)
        if isinstance(func, ast.Name) and func.id in ("int", "len") and args:
            # both always give a Python int: its value may be unknown, but it is no tensor and no float
            if func.id == "int" and isinstance(args[0], Literal) and isinstance(args[0].value, float):
                return DimVal(int(args[0].value))  # int(0.25 * 16): a known size
            if func.id == "int" and exact_values.number(args[0]) is not None:
                return DimVal(exact_values.number(args[0]))  # int(mask.sum()) of a known mask
            if func.id == "int" and isinstance(args[0], scalars.BoolVal):
                return scalars.FlagInt(None, node.lineno)  # int(rng.random() < p): 0 or 1
            return args[0] if func.id == "int" and isinstance(args[0], DimVal) else DimVal(
                sequences.length(args[0], node.args[0]) if func.id == "len" else None)
        return None

    def _tensor_op(self, node: ast.Call, name: str, owner: TensorVal, args, kwargs, owner_node, module=None):
        """What `owner.<name>(*args)` (or `<module>.<name>(owner, *args)`) gives: its shape and dtype from the op
        table, then each value fact the op carries, makes or ends."""
        text = self.source.segment(owner_node)
        kwargs = keyword_aliases.canonical(kwargs)  # torch.argmax(x, axis=2) as x.argmax(dim=2)
        result = ops.apply_method(name, owner, args, kwargs, text)
        op_dims.check(self, node, name, owner, args, kwargs)  # GL002: topk(k, dim=1) of a 1-d input
        op_counts.check(self, node, name, owner, args, kwargs, owner_node)  # GL035: topk(64) of 40 entries
        view_sizes.check(self, node, name, owner, args, owner_node)  # GL037: view(2, 5) of 20 elements
        if result is None or name in bool_results.PREDICATES:
            result = bool_results.method(name, owner, args, kwargs) or result  # x.gt(0): a mask
        result = normalised_consumers.after(self, node, name, owner, args, kwargs, result, module)  # GL018
        result = _carry_shift(owner, result, name, args)
        result = _carry_kept_singleton(owner, result, name, args)  # GL006: a gather's [N, 1] unsqueezed is [N, 1, 1]
        result = _spread_axes(owner, result, name)  # GL019: `pos.expand(*x.shape)` holds one value along each spread dim
        result = self._sentinel_after(name, owner, result, args, kwargs, node)
        result = repeated_indices.after_method(name, owner, result, node, kwargs)
        result = _value_ranges_after(name, owner, result, node, args, kwargs, text)
        result = left_padding.after_method(name, owner, result, args, kwargs)  # GL024: a left-padded batch's counts
        result = permutation_order.after_method(name, owner, result, node, args, kwargs)  # GL027
        permutation_order.note_sorted(self, name, owner, result)  # GL034: the tensor a sort was taken of
        permutation_order.check_mask(self, node, name, owner, args, kwargs, owner_node)  # GL034: a sorted-order mask
        result = permutation_order.picked(self, name, owner, result, node, args, kwargs)  # GL034
        result = written_rows.transposed(name, owner, result, args)  # GL011: a literal's columns
        result = present_values.after_method(name, result, node)  # masked_fill(m, 0): the top may be gone
        result = exact_values.after_method(name, owner, args, kwargs, result)  # ids == image_id, mask.sum()
        if name in ("nonzero", "argwhere"):  # positions of a mask: as many as the rows it keeps
            result = masked_rows.counted_positions(self, owner_node, owner, result)
        result = head_columns.reduced(name, owner, kwargs, result, node)  # GL006: a keepdim column
        result = dropped_dims.carried(name, owner, dropped_dims.reduced(name, owner, args, kwargs, result, node))  # GL029
        result = head_columns.top_one(name, owner, args, kwargs, result, node)  # and x.topk(1)
        result = stacked_parts.after_method(name, owner, args, kwargs, result)  # triples.select(1, 1): one column
        if name == "eq" and len(args) == 1:  # topk_ids.eq(e): true at most once along the top-k dim
            result = distinct_lines.compared(owner, args[0], result)
        result = distinct_lines.after_method(name, owner, args, kwargs, result)  # topk's indices: once per row
        return dtype_certainty.after_method(self, name, owner, args, node, module, result)

    def _sentinel_after(self, method: str, owner: TensorVal, result, args, kwargs, node):
        """masked_fill(m, -100) puts padding in, masked_fill(m, 0) / clamp(min=0) take it out."""
        if method == "new_full" and len(args) >= 2 and _negative(args[1]) is not None \
                and not (node.args and written_empty(node.args[0])):  # a tensor of padding
            made = result if isinstance(result, TensorVal) else TensorVal(None, owner.dtype)
            return _with_sentinel(made.with_(domain=None), _negative(args[1]), node.lineno)
        if method == "new_ones" and isinstance(result, TensorVal):
            return constant_ids.ones(method, result.with_(domain=None, dtype=result.dtype or owner.dtype), node.lineno)
        if method == "new_full" and len(args) >= 2 and isinstance(result, TensorVal):
            return constant_ids.filled(result.with_(domain=None, dtype=result.dtype or owner.dtype), args[1], node.lineno)
        if not isinstance(result, TensorVal):
            return result
        if method in ("masked_fill", "masked_fill_") and len(args) >= 2:
            if self._replaces_fill(node, result):  # x.masked_fill(x == PAD, v): no entry holds PAD any more
                result = present_values.without_fill(result)
            if _negative(args[1]) is not None:
                return _with_sentinel(result, _negative(args[1]), node.lineno)
            if ops.as_int(args[1]) is not None:
                return value_ranges.written(value_ranges.masked(_with_sentinel(result, None, None)), ops.as_int(args[1]),
                                            node.lineno)
            # x.masked_fill(x == -1, n): whatever n is, every padded entry is replaced
            result = _with_sentinel(result, None, None) if self._replaces_sentinel(node, result) else result
            if isinstance(args[1], DimVal) and isinstance(args[1].dim, Sym):  # masked_fill(void, num_classes)
                return value_ranges.written(result, args[1].dim, node.lineno)
            return result
        if method in ("long", "int", "short", "to", "type") and owner.dtype == "bool":
            receiver = node.func.value if isinstance(node.func, ast.Attribute) else node
            return value_ranges.from_bool(owner, result, method, node.lineno, self.source.segment(receiver))
        if method in ("float", "half", "double", "bfloat16", "to", "type") and result.dtype in ops.FLOAT_DTYPES \
                and owner.dtype is not None and owner.dtype not in ops.FLOAT_DTYPES:
            made = _made_float(result.with_(domain=owner.domain), f"`.{method}()` at line {node.lineno}")
            if result.dtype in _EXACT_UP_TO:
                base = made.domain
                made = made.with_(domain=replace(base, rounded=(result.dtype, _EXACT_UP_TO[result.dtype],
                                                                  f"`.{method}()` at line {node.lineno}"),
                                                 rounded_at=self._span(node)))
            return made
        if method in ("byte", "char", "short", "to", "type") and result.dtype in numpy_values.INT_HOLDS_UP_TO \
                and (owner.dtype in ("int64", "int32") or owner.dtype is None and owner.domain is not None and owner.domain.category):
            # ids narrowed to 8 or 16 bits wrap around past the type's top (a label map kept as uint8)
            return result.with_(domain=numpy_values.narrowed(result.domain, result.dtype, f"`.{method}()` at line {node.lineno}"))
        if method == "sum":
            dim = kwargs.get("dim", args[0] if args else None)
            receiver = node.func.value if isinstance(node.func, ast.Attribute) and method == node.func.attr else \
                (node.args[0] if node.args else node)
            if isinstance(receiver, ast.Name) and mask_writes.false_along(self, receiver.id, ops.as_int(dim), owner, node.lineno):
                return result  # `mask[:, -1] = False` above: no row counts every position
            return value_ranges.length_of_mask(owner, result, ops.as_int(dim), self.source.segment(receiver))
        if method in ("clamp", "clip", "clamp_max", "clamp_"):
            upper = kwargs.get("max", args[0] if method == "clamp_max" and args else (args[1] if len(args) > 1 else None))
            result = value_ranges.clamped(result, upper, node.lineno)
        if method == "minimum" and len(args) == 1 and not kwargs:
            result = _capped(result, [owner, args[0]], node.lineno)
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

    def _replaces_fill(self, node: ast.Call, result: TensorVal) -> bool:
        """`x.masked_fill(x == PAD, v)` (or `~(x != PAD)`) of an x whose fill PAD is among its values: every
        entry holding the fill is replaced (PAD may be a module constant: its value is read)."""
        if not node.args or not isinstance(node.func, ast.Attribute):
            return False
        return self.mask_covers_fill(node.args[0], node.func.value, result)

    def mask_covers_fill(self, mask: ast.expr, subject: ast.expr, held_by: TensorVal) -> bool:
        """Whether `mask` is true wherever `subject` holds the fill value `held_by` is known to hold (the value may
        be a name whose int the analysis knows): `x.masked_fill(x == PAD, v)`, `x[x == PAD] = v`."""
        held = present_values.fill_value(held_by)
        return held is not None and sentinel_masks.at_sentinel(
            mask, subject, held, self.function, number=lambda n: ops.as_int(self.expr(n))) is True

    def _replaces_sentinel(self, node: ast.Call, result: TensorVal) -> bool:
        """`x.masked_fill(mask, v)` whose mask is true wherever x holds its padding value."""
        return bool(node.args) and isinstance(node.func, ast.Attribute) \
            and self.mask_covers_sentinel(node.args[0], node.func.value, result)

    def mask_covers_sentinel(self, mask: ast.expr, subject: ast.expr, held_by: TensorVal) -> bool:
        """Whether `mask` is true wherever `subject` holds the padding value `held_by` is known to hold (a literal
        int in the mask's comparison): `x.masked_fill(x == -1, v)`, `x[x == -1] = v`."""
        held = held_by.domain.sentinel if held_by.domain is not None else None
        return held is not None and sentinel_masks.at_sentinel(mask, subject, held, self.function) is True

    def _call_instance(self, target, node: ast.Call, args, kwargs):
        """`layer(x)` / `q_net(obs)`: a layer's output shape, or a file class's forward on an instance."""
        if modules.is_layer(target):
            return self._apply_layer(target, node, args)
        formal = self._formal(node.args, args)
        if formal is None:
            return None
        result = self.module.call_instance(self, target, node, formal, kwargs)
        return self._shaped_by_comments(result, formal, list(args), lambda: self.module.call_instance(
            self, target, node, args, kwargs, silent=True))

    def _apply_layer(self, layer, node: ast.Call, args):
        """`layer(x)`, `self.rnn(x, h0)`: the layer's output; an embedding's ids are checked against its rows.
        Keywords (`mask=`) do not change the output's shape."""
        if isinstance(layer, modules.Recurrent) and args and isinstance(args[0], packed_sequences.PackedVal):
            return packed_sequences.through_layer(layer, args[0])  # rnn(pack_padded_sequence(x, ...))
        bag = isinstance(layer, LayerVal) and layer.kind == "EmbeddingBag"
        if isinstance(layer, LayerVal) and layer.table and (len(args) == 1 or bag and len(args) == 2) and node.args \
                and isinstance(args[0], TensorVal):
            what = f"`{self.source.segment(node.func)}` (nn.{layer.kind})"
            if not bag:
                self._check_padding_lookup(node, node.args[0], args[0], f"{self.source.segment(node.func)}() (nn.Embedding)")
            index_values.check_lookup(self, node, node.args[0], args[0], layer.first, what)
            embedding_lookups.check(self, node, node.args[0], args[0], layer.first, what)
        return normalised_consumers.layer_output(self, layer, head_columns.mark(layer, node, layer.apply(args[0]))) \
            if len(args) == 1 or bag and len(args) == 2 or (args and modules.takes_state(layer)) else None

    def _call_method(self, instance: InstanceVal, name: str, node: ast.Call, args, kwargs):
        """`model.eval()` is the model again; `model.loss(ids)` runs the method with the instance's facts."""
        if name in _RETURNS_MODULE and not kwargs:
            return instance
        method = self.module.methods.get((instance.class_name, name))
        if method is None and instance.facts is not None:
            # `model.value_head(h)`, `agent.q_net(obs)`: a layer (or a file class) its __init__ built
            held = self.module.attributes(instance.class_name, instance.facts).get(f"self.{name}")
            if modules.is_layer(held) or isinstance(held, InstanceVal):
                return self._call_instance(held, node, args, kwargs)
        formal = self._formal(node.args, args)
        if method is None or formal is None or (instance.facts is None and not self.module.scripted):
            return None
        first = [None] if class_lineage.binds_first(method) else []  # obj.f(x) of a @staticmethod: x is its first
        result = self.module.call(self, method, node, first + formal, kwargs, instance)
        return self._shaped_by_comments(result, formal, list(args), lambda: self.module.call(
            self, method, node, first + list(args), kwargs, instance, silent=True))

    def _call_module_function(self, callee, node: ast.Call, args, kwargs, skip_first: bool = False):
        """Hand a call of a module function (or of self.method) to the module with formal facts only."""
        formal = self._formal(([None] if skip_first else []) + list(node.args), args)
        if formal is None:
            return None
        formal_kw = {k.arg: (value_facts(kwargs.get(k.arg)) if self.uses_informal(k.value) else kwargs.get(k.arg))
                     for k in node.keywords if k.arg}
        formal_kw.update({k: v for k, v in kwargs.items() if k not in formal_kw})  # items of a **spread
        result = self.module.call(self, callee, node, formal, formal_kw)
        result = self._shaped_by_comments(result, (formal, formal_kw), (list(args), kwargs),
                                          lambda: self.module.call(self, callee, node, args, kwargs, silent=True))
        return result if result is not None else python_annotations.sequence_of(callee.returns)  # -> list[int]

    def _formal(self, arg_nodes, args):
        """The arguments a callee is checked with: those resting on shape comments keep only what code
        proved. `f(*batch)` with a tracked tuple passes its items; with an untracked one, None."""
        if not any(isinstance(a, ast.Starred) for a in arg_nodes):
            return [value_facts(v) if self.uses_informal(a) else v for a, v in zip(arg_nodes, args)]
        if UNKNOWN_ARITY in args:
            return None
        informal = any(self.uses_informal(a) for a in arg_nodes if a is not None)
        return [value_facts(v) for v in args] if informal else list(args)

    def _shaped_by_comments(self, result, formal, given, run_silently):
        """The result of a call whose arguments' shapes rest on comments: the callee was checked without
        them; run it once more with them, silently, for what it returns (still informal here)."""
        if formal == given or not self.module.scripted:  # (a library's many commented calls: too costly)
            return result
        shaped = run_silently()
        return shaped if shaped is not None else result

    def _guarded_branches(self, node: ast.Call, args: list) -> list:
        """torch.where(cond, a, b): `a` holds what cond keeps and `b` what it turns away, as an `if cond:` arm
        would (`torch.where(loc < capacity, e * capacity + loc, spare)`: loc below capacity in `a`). Each branch
        so guarded is worked out again, quietly: its checks ran with the values as they came."""
        if len(node.args) != 3 or node.keywords:
            return args
        kept_in, kept_out = self._ruled_out(node.args[0])
        out = list(args)
        for k, ruled in ((1, kept_in), (2, kept_out)):
            if not ruled:
                continue
            saved = self.env
            self.env = dict(self.env)
            try:
                with quietly(self, True):
                    self._without_values(ruled)
                    out[k] = self.expr(node.args[k])
            finally:
                self.env = saved
        return out

    def _args(self, node: ast.Call):
        args = []
        for a in node.args:
            if isinstance(a, ast.Starred):
                spread = self.expr(a.value)
                if not isinstance(spread, SeqVal):
                    args.append(UNKNOWN_ARITY)
                    continue
                args.extend(spread.items)
            else:
                args.append(self.expr(a))
        if UNKNOWN_ARITY in args:
            args = [UNKNOWN_ARITY]
        kwargs = {k.arg: self.expr(k.value) for k in node.keywords if k.arg}
        for k in node.keywords:
            if k.arg == "dtype" and isinstance(k.value, ast.Name) and k.value.id in _BUILTIN_DTYPES \
                    and k.value.id not in self.env:  # torch reads dtype=bool as torch.bool (int: int64, float: float64)
                kwargs["dtype"] = Literal("dtype:" + _BUILTIN_DTYPES[k.value.id])
            if k.arg is None:
                spread = self.expr(k.value)
                if isinstance(spread, config.DictVal):
                    kwargs.update((key, v) for key, v in spread.items if isinstance(key, str))  # f(**cfg), cfg literal
                else:
                    kwargs[_UNKNOWN_KWARGS] = None
        return args, kwargs

    def _qualified_call(self, name: str, node: ast.Call, args: list, kwargs: dict):
        result = self._qualified_result(name, node, args, kwargs)
        if op_census.active is not None:  # benchmarks/op_coverage.py
            op_census.function(node, name, args, result, kwargs)
        return result

    def _qualified_result(self, name: str, node: ast.Call, args: list, kwargs: dict):
        module, _, func = name.rpartition(".")
        if module.split(".")[0] == "torch":
            kwargs = keyword_aliases.canonical(kwargs)  # torch.max(x, -1, keepdims=True)
        if name in sequences.SEQUENCE_COPIES:
            return sequences.copy_of(args, kwargs)
        normalised_consumers.check_loss(self, node, module, func, args, kwargs)  # GL018
        if module == "torch" and func in tensor_lists.CHUNKING and args and isinstance(args[0], TensorVal):
            return tensor_lists.chunks(args[0], args[1:], kwargs, func)
        if name.startswith("numpy.") and func in ("array", "asarray") and args and isinstance(args[0], image_reads.PilImage):
            return image_reads.array_of(args[0])  # np.array(Image.open(p).convert("L")): the mode's dtype
        if name.startswith("numpy."):
            return numpy_values.call(func, args, kwargs, node)
        if module in ("cv2", "PIL.Image"):
            return image_reads.qualified(name, args, node)  # cv2.imread: uint8
        if module in ("random", "collections", "copy") or module == "math" and func in python_stdlib.ROUNDING:
            return python_stdlib.call(module, func, args, kwargs)  # random.sample(buffer, n), math.ceil(h / p)
        if module.split(".")[0] == "tqdm" and func in ("tqdm", "tqdm_notebook"):
            return data_loaders.iterated(func, args)  # tqdm(loader): the same batches
        if module.startswith("torch.utils.data") and data_loaders.is_loader(func):
            return data_loaders.call(self, func, node, args, kwargs)  # batches: a dataset item, collated
        if module.startswith("torch.distributions") and func in distribution_values.KINDS:
            return distribution_values.make(func, args, kwargs)
        if func in numpy_values.TO_TENSOR and module == "torch" and args and isinstance(args[0], ArrayVal) \
                and numpy_values.to_tensor(func, args[0], kwargs) is not None:
            return numpy_values.to_tensor(func, args[0], kwargs)  # torch.from_numpy(a): a's dtype
        for left_node, left, right_node, right, what in broadcast_sites.pairs(module, func, node, args, kwargs):
            self._check_broadcast(node, left_node, left, right_node, right, what)
        if module == "torch.nn.functional":
            class_targets.check(self, func, node, args, kwargs)
            per_sample = unreduced_losses.shape(func, args, kwargs)  # reduction="none": one loss per sample
            if per_sample is not None:
                return per_sample
        if broadcast_sites.loss_module(module, func) and not class_targets.ignores_targets(func, node):
            return unreduced_losses.module(broadcast_sites.loss_module(module, func), kwargs)
        if module == "torch" and func in broadcast_sites.BINARY and len(args) == 2 and all(
                isinstance(a, TensorVal) for a in args):  # torch.mul(a, b) broadcasts like a * b
            symbol = broadcast_sites.BINARY[func]
            if symbol == "/" and kwargs.get("rounding_mode") not in (None, Literal(None)):
                symbol = "//"  # torch.div(a, b, rounding_mode="floor" | "trunc"): rounded, integers stay integers
            made = _carry(args[0], args[1], ops.binary(args[0], args[1], symbol if len(symbol) <= 2 else "+"))
            return _capped(made, args, node.lineno) if symbol == "min" else made
        if module == "torch" and (func in bool_results.COMPARISONS or func in bool_results.PREDICATES or func == "isin"):
            made = bool_results.function(func, args, kwargs)  # torch.isnan(x), torch.gt(x, 0): a mask
            return left_padding.compared(args[0], args[1], made) if func in ("ne", "eq") and len(args) == 2 else made
        if module in ("torch", "torch.nn.functional", "torch.special", "torch.linalg"):
            if func in _CONSTRUCTORS and func != "full":  # full's fill value may be padding: below
                made = repeated_indices.literal_repeats(func, node, _construct(func, args, kwargs, node, self.function))
                made = permutation_order.randperm(made, node) if func == "randperm" else made  # GL027
                made = value_ranges.padded_rows(self, func, node, made)  # GL011: rows padded with a size
                made = _fraction_made(func, made, args, node.lineno)  # GL011: rand() and linspace() ranges
                made = left_padding.made_rows(func, node, made)  # GL024: rows written with their padding first
                if node.args and args:
                    made = written_rows.of_literal(func, made, node.args[0], args[0], node.lineno)  # GL011
                    made = exact_values.written(func, made, node.args[0], args[0], node.lineno)  # GL003, GL011
                    made = signs.of_literal(func, node.args[0], made)  # GL014: tensor([-2.0, 4.0])
                    if func in ("tensor", "as_tensor", "LongTensor"):
                        made = sequence_items.tensor_of(self, node.args[0], made)  # ids of one sequence
                if func in ("zeros", "ones"):
                    made = exact_values.constant(made, DimVal(int(func == "ones")))
                made = exact_values.ranged(func, made, args, kwargs)  # arange(1, 31): positions known one by one
                return constant_ids.ones(func, dtype_certainty.constructed(self, func, node, made), node.lineno)
            if func in _LIKE and func != "full_like" and args and isinstance(args[0], TensorVal):  # (full_like: below)
                dtype = _like_dtype(kwargs, args[0])
                filled = constant_fills.fill(func, kwargs)
                interval = value_intervals.uniform(node.lineno) if func == "rand_like" else None
                made = TensorVal(args[0].shape, dtype, filled=filled, interval=interval, **signs.made_by(func))
                return constant_ids.ones(func, dtype_certainty.like(node, args[0], made), node.lineno)
            if func in _LIKE and func != "full_like" and args and args[0] is None:  # zeros_like(x) of an unknown x: a
                # tensor all the same (full_like's fill value may be padding: below)
                return TensorVal(None, _dtype_kw(kwargs), filled=constant_fills.fill(func, kwargs), **signs.made_by(func))
            if func == "take" and len(args) == 2 and len(node.args) == 2:
                flat_positions.check_take(self, node, args[0], args[1])  # GL030: take() reads the flattened tensor
            if func in ("cat", "concat", "concatenate", "stack") and args:
                dim = ops.as_int(kwargs.get("dim", args[1] if len(args) > 1 else DimVal(0)))
                if isinstance(args[0], ops.Repeated):
                    element = args[0].element
                    return ops.cat_repeated(element, dim, func == "stack", args[0].length) if isinstance(element, TensorVal) else None
                items = list(args[0].items) if isinstance(args[0], SeqVal) else []
                joined = constant_ids.through_cat(items, ops.cat(items, dim, stack=func == "stack"))
                joined = signs.concatenated(items, joined)  # GL014: the pieces' signs
                joined = exact_values.joined(items, dim, func == "stack", joined)  # a prompt and its response
                joined = shifted_positions.through_cat(items, joined) if func != "stack" else joined
                joined = repeated_indices.through_cat(items, joined, dim, node.lineno)  # GL013: voxel coordinates beside batch ids
                joined = dtype_certainty.joined(items, joined)
                joined = left_padding.joined(items, dim, func == "stack", joined)  # GL024: a left-padded prompt, then more
                joined = stacked_parts.made(items, dim, func == "stack", joined)  # GL011: (head, relation, tail) columns
                padded = [t.domain for t in items if isinstance(t, TensorVal) and t.domain and t.domain.sentinel is not None]
                if padded and (joined is None or isinstance(joined, TensorVal)):  # a tensor whatever the shapes
                    return _with_sentinel(joined or TensorVal(), padded[0].sentinel, padded[0].sentinel_line)
                cast = [t.domain for t in items if isinstance(t, TensorVal) and t.domain and t.domain.made_float]
                if cast and isinstance(joined, TensorVal) and joined.dtype in ops.FLOAT_DTYPES:
                    # ids cast to float and joined with float columns (`cat([boxes, labels.float()], 1)`): the
                    # float the ids come back as was made by the code, not only written in an annotation
                    return _made_float(joined, cast[0].made_float, cast[0].made_float_at)
                return joined
            if func == "where" and len(args) == 1 and not kwargs and isinstance(args[0], TensorVal):
                found = masked_rows.counted_positions(self, node.args[0], args[0], ops.positions_per_dim(args[0]))
                return flat_positions.per_dim(args[0], found, node.lineno, f"torch.where({self.source.segment(node.args[0])})")
            if func == "where" and len(args) == 3:
                return _where(self._guarded_branches(node, args), node.lineno, node.args)
            if func in ("full", "full_like"):
                made = _construct("full", args, kwargs, node) if func == "full" else (
                    dtype_certainty.like(node, args[0], TensorVal(args[0].shape, _like_dtype(kwargs, args[0]),
                                                                  filled=constant_fills.fill(func, kwargs)))
                    if args and isinstance(args[0], TensorVal)
                    else (TensorVal(None, _dtype_kw(kwargs)) if args and args[0] is None else None))
                fill = args[1] if len(args) > 1 else kwargs.get("fill_value")
                made = exact_values.constant(made, fill)  # torch.full((n,), image_id): n placeholders
                if isinstance(made, TensorVal) and _negative(fill) is not None and not (
                        func == "full" and node.args and written_empty(node.args[0])):
                    return _with_sentinel(made, _negative(fill), node.lineno)
                return constant_ids.filled(made, fill, node.lineno)
            if func == "pad" and args and isinstance(args[0], TensorVal):
                padded = TensorVal(pad_shape.padded(args[0].shape, args[1] if len(args) > 1 else kwargs.get("pad")),
                                   args[0].dtype, args[0].domain)
                fill = kwargs.get("value", args[3] if len(args) > 3 else None)
                if _negative(fill) is not None:
                    return _with_sentinel(padded, _negative(fill), node.lineno)
                return constant_ids.padded(padded, fill, args[1] if len(args) > 1 else kwargs.get("pad"), node.lineno)
            if func in ("one_hot", "embedding") and args and isinstance(args[0], TensorVal):
                self._check_padding_lookup(node, node.args[0], args[0], f"F.{func}()")
            if func == "one_hot" and node.args:  # GL011: num_classes = ids.max()
                own_max_sizes.check_one_hot(self, node, node.args[0], node.args[1] if len(node.args) > 1 else next(
                    (k.value for k in node.keywords if k.arg == "num_classes"), None))
            if func == "one_hot" and args and isinstance(args[0], TensorVal):
                n = kwargs.get("num_classes", args[1] if len(args) > 1 else None)
                class_targets.check_one_hot(self, node, node.args[0], args[0], n)
                s = args[0].shape
                given = len(node.args) > 1 or any(k.arg == "num_classes" for k in node.keywords)
                if not given or isinstance(n, DimVal) and value(n.dim) == -1:  # as wide as the batch's largest + 1
                    return inferred_widths.one_hot(self, node, node.args[0], args[0]) or TensorVal(None, "int64", non_negative=True)
                if s is None or s.variadic or not isinstance(n, DimVal):
                    return TensorVal(None, "int64", non_negative=True)  # 0s and 1s
                return TensorVal(Shape(s.dims + (n.dim,)), "int64", non_negative=True)
            if func == "embedding" and len(args) >= 2 and isinstance(args[1], TensorVal):
                ids, weight = args[0], args[1]
                if weight.shape is not None and not weight.shape.variadic and len(weight.shape.dims) == 2:
                    index_values.check_lookup(self, node, node.args[0], ids, weight.shape.dims[0],
                                              f"the weight `{self.source.segment(node.args[1])}` of F.embedding()")
                rows = weight.shape.dims[0] if weight.shape is not None and not weight.shape.variadic and weight.shape.dims else None
                embedding_lookups.check(self, node, node.args[0], ids, rows, "F.embedding()")
                if isinstance(ids, TensorVal) and ids.shape and weight.shape and not weight.shape.variadic and len(weight.shape.dims) == 2 and not ids.shape.variadic:
                    return TensorVal(Shape(ids.shape.dims + weight.shape.dims[1:]), weight.dtype)
                return TensorVal(None, weight.dtype)
            if func == "einsum":
                table_mixtures.check_einsum(self, node, args)  # GL018: a softmax mixing a table's rows
                return einsum.result(args)
            if func == "linear" and len(args) >= 2:
                return modules.linear(args[0], args[1])
            if func == "unfold" and module == "torch.nn.functional" and args and isinstance(args[0], TensorVal):
                return unfold_shape.unfolded(args[0], args[1:], kwargs)
            if func == "searchsorted" and len(args) >= 2 and isinstance(args[1], TensorVal):
                return repeated_indices.searched(args[0], TensorVal(args[1].shape, "int64"), node)
            if func in signs.NON_NEGATIVE and args and args[0] is None:
                return TensorVal(non_negative=True)  # torch.relu(x) of an unknown x: a tensor, >= 0 (GL014)
            if func in signs.ALWAYS_SIGNED and args and args[0] is None:
                return TensorVal(signed=True)  # F.logsigmoid(x) of an unknown x: a tensor, <= 0 (GL014)
            if func in ops.NORMS and module in ("torch", "torch.linalg") and args:
                # torch.norm(x, dim=1), torch.linalg.vector_norm(x, dim=-1): a reduction (matrix_norm's default
                # dims are the last two: its shape is left unknown), >= 0 whatever x holds (GL014)
                normed = ops.apply_method("norm", args[0], args[1:], kwargs, "") \
                    if isinstance(args[0], TensorVal) and func != "matrix_norm" else None
                return (normed if isinstance(normed, TensorVal) else TensorVal()).with_(non_negative=True)
            if func in _TORCH_ON_INPUT and args and isinstance(args[0], TensorVal):
                # torch.unique(x), torch.clamp(x, 0, n): the method's facts, as `x.unique()` gets them
                result = self._tensor_op(node, func, args[0], args[1:], kwargs, node.args[0], module)
                return _carry(args[0], args[0], result)
            further = (further_ops.FUNCTIONS if module == "torch" else functional_results.FUNCTIONS if
                       module == "torch.nn.functional" else {}).get(func)
            if further is not None:  # meshgrid, hstack; F's losses, resampling, attention, convolutions
                return further(args, kwargs)
            if op_census.active is not None and func not in _TORCH_ON_INPUT:  # no entry (benchmarks/op_coverage.py)
                op_census.active.unmatched = func
            return None
        if func == "SimpleNamespace" and module == "types" or func == "Namespace" and module == "argparse":
            return config.keyword_dict(kwargs) if not args and _UNKNOWN_KWARGS not in kwargs else None
        if func == "pack_padded_sequence" and module.endswith("nn.utils.rnn"):
            return packed_sequences.pack(args, kwargs)
        if func == "pad_packed_sequence" and module.endswith("nn.utils.rnn"):
            return packed_sequences.unpack(args, kwargs)
        if func == "pad_sequence" and module.endswith("nn.utils.rnn"):
            fill = kwargs.get("padding_value", args[2] if len(args) > 2 else None)
            made = left_padding.padded_left(kwargs, packed_sequences.padded(args, kwargs))
            if _negative(fill) is not None:
                return _with_sentinel(made or TensorVal(), _negative(fill), node.lineno)
            return made
        if module in modules.NN_MODULES:
            return normalised_consumers.layer(node, func, modules.build(func, args, kwargs), args, kwargs,
                                              self.source.segment)  # nn.LogSoftmax(dim=0) marks its output (GL018)
        if name.endswith("rearrange") and len(args) >= 2 and isinstance(args[0], TensorVal):
            pattern = args[1]
            if isinstance(pattern, Literal) and isinstance(pattern.value, str):
                return _rearrange(args[0], pattern.value, kwargs)
        return None


def _value_ranges_after(name: str, owner, result, node, args, kwargs, owner_text: str):
    """What `owner.name(*args)` (or `torch.name(owner, *args)`) keeps of the largest values it can hold (GL011):
    scaled fractions, running counts of a mask, flattened coordinates."""
    result = value_intervals.after_method(name, owner, result, node.lineno, args, kwargs)
    result = mask_bounds.after_method(name, owner, result)  # (ids == pad).any(-1): where pad is, for a guard
    result = running_counts.after_method(name, owner, result, node.lineno, args, kwargs)
    return flat_positions.after_method(name, owner, result, node.lineno, owner_text)


# the legacy tensor types: each makes its own dtype of data (`torch.Tensor([...])` is float), or of sizes
_LEGACY_DTYPES = {"Tensor": "float32", "FloatTensor": "float32", "LongTensor": "int64", "IntTensor": "int32",
                  "ShortTensor": "int16", "CharTensor": "int8", "ByteTensor": "uint8", "BoolTensor": "bool",
                  "DoubleTensor": "float64", "HalfTensor": "float16"}
_INT_LEGACY = ("LongTensor", "IntTensor", "ShortTensor", "CharTensor", "ByteTensor")


def written_empty(size: ast.expr) -> bool:
    """A size written with a 0 in it (`torch.full((n, 0), -1)`, the seed a loop concatenates onto): the tensor is
    empty in every run and holds no fill value. A size computed to 0 under one caller's facts is not: other calls
    give it entries."""
    items = size.elts if isinstance(size, (ast.Tuple, ast.List)) else [size]
    return any(isinstance(item, ast.Constant) and item.value == 0 and type(item.value) is int for item in items)


# the family rules whose finding means the call raises whatever the values: rank, dim, sizes, index dtype
_ALWAYS_RAISE = frozenset({"GL001", "GL002", "GL003", "GL008"})
_CONSTRUCTORS = {"randn", "rand", "zeros", "ones", "empty", "full", "randint", "arange", "tensor", "randperm",
                 "as_tensor", "linspace", "logspace", "eye"} | set(_LEGACY_DTYPES)


def _fraction_made(func: str, made, args, line: int):
    """`torch.rand(...)` lies in [0, 1); `torch.linspace(0, N, S)` holds both ends (value_intervals)."""
    if not isinstance(made, TensorVal) or made.dtype not in (None, "float32", "float64", "float16", "bfloat16"):
        return made
    if func == "rand":
        return made.with_(interval=value_intervals.uniform(line))
    if func == "linspace" and len(args) >= 2:
        interval = value_intervals.spaced(args[0], args[1], line)
        return made.with_(interval=interval) if interval is not None else made
    return made


_LIKE = {"zeros_like", "ones_like", "empty_like", "rand_like", "randn_like", "full_like", "randint_like"}


def _capped(result, operands, line: int):
    """minimum(coords, grid_size - 1) with one side's bounds written out: a clamp by the largest of them, and
    by each of them in its own column when they are one per column of the last dim."""
    bounds = [t for t in operands if isinstance(t, TensorVal) and exact_values.largest(t) is not None]
    if len(bounds) != 1 or not isinstance(result, TensorVal):
        return result
    capped = value_ranges.clamped(result, DimVal(exact_values.largest(bounds[0])), line)
    return value_intervals.per_column(capped, exact_values.of(bounds[0]), line)


_TORCH_ON_INPUT = set(ops.SHAPE_METHODS) | ops._ELEMENTWISE | ops._REDUCE | ops.PERMUTING | {
    "argmax", "argmin", "topk", "sort", "argsort", "max", "min", "median", "nanmedian", "mode", "kthvalue", "matmul", "clamp", "clip", "multinomial",
    "nonzero", "argwhere", "bucketize", "cumsum", "cumprod", "squeeze", "unsqueeze", "long", "float", "unique",
    "unique_consecutive", "triu", "tril", "unbind", "select", "masked_fill", "clone", "numel"} | set(ops.FURTHER_METHODS)


_RETURNS_MODULE = {"eval", "train", "to", "cuda", "cpu", "float", "double", "half", "bfloat16", "requires_grad_"}


_SHAPE_FROM_ARGS = {"view", "reshape", "expand", "to", "long", "int", "float", "half", "double", "bfloat16",
                    "type", "byte", "bool", "char", "short",  # casts: the dtype whatever the receiver was
                    "new_zeros", "new_ones", "new_empty", "new_full"}  # a fresh tensor of the sizes given


_ARITH_METHODS = {"mul", "add", "sub", "div", "mul_", "add_", "sub_", "div_", "maximum", "minimum", "eq", "ne",
                  "lt", "le", "gt", "ge"}


_EXACT_UP_TO = {"float16": 2048, "bfloat16": 256, "float32": 2 ** 24}  # every integer up to this survives the round trip


_SPREADS = ("expand", "expand_as", "broadcast_to", "repeat")


def _spread_axes(owner: TensorVal, result, method: str):
    """The axes of `x.expand(...)` / `repeat(...)` where x had size 1 (or no dim) and the result a size of more:
    every entry along such an axis is one value copied. A named size counts as more, as the code's names stand
    for real dims; an unknown one does not."""
    if method not in _SPREADS or not isinstance(result, TensorVal) or owner.shape is None or owner.shape.variadic \
            or result.shape is None or result.shape.variadic or len(result.shape.dims) < len(owner.shape.dims):
        return result
    lead = len(result.shape.dims) - len(owner.shape.dims)
    axes = tuple(k for k, size in enumerate(result.shape.dims)
                 if (k < lead or value(owner.shape.dims[k - lead]) == 1) and size is not None and value(size) != 1)
    return result.with_(spread=axes) if axes else result


def _carry_kept_singleton(owner: TensorVal, result, method: str, args):
    """A gather's kept size-1 dim through `unsqueeze(d)`: still there, one place further where the new dim comes
    before it (`q.gather(1, o).unsqueeze(-1)` is [N, 1, 1] with the gather's 1 at dim 1)."""
    kept = owner.kept_singleton
    if kept is None or method != "unsqueeze" or len(args) != 1 or not isinstance(result, TensorVal) \
            or result.kept_singleton is not None or owner.shape is None or owner.shape.variadic \
            or result.shape is None or result.shape.variadic or ops.as_int(args[0]) is None:
        return result
    position = normalize_dim(ops.as_int(args[0]), len(owner.shape.dims) + 1)
    if position is None:
        return result
    return result.with_(kept_singleton=kept + 1 if position <= kept else kept, kept_at=owner.kept_at)


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


def _where(args, line: int, nodes=()):
    """torch.where(c, a, b); where(c, ids, -100) puts padding into ids, where(c, ids, 0) takes it out."""
    from ..dims import broadcast

    tensors = [a for a in args[1:] if isinstance(a, TensorVal)]
    if not tensors:
        fill = next((_negative(a) for a in args[1:] if _negative(a) is not None), None)
        if fill is not None and any(a is None for a in args[1:]):  # where(pad, -1, ids): ids unknown, -1 certain
            return _with_sentinel(TensorVal(None), fill, line)
        made = further_ops.where_of_numbers(*args)  # where(mask, 1.0, 0.0)
        # where(y > 0, 1, -1): signed labels; the negative one is among the values
        return _with_sentinel(made, fill, line) if fill is not None and made is not None and made.dtype == "int64" else made
    shape = args[0].shape if isinstance(args[0], TensorVal) else None
    for t in tensors:
        shape = broadcast(shape, t.shape)
    if shape is not None and shape.dims and not shape.guessed and any(a is None for a in args[:3]):
        # where(drop_mask [n], scores, full((1,), -inf)) with `scores` unknown: that operand may be a tensor of
        # more dims ([batch, n]) that the result broadcasts to, so the rank read off the others is a guess
        shape = replace(shape, guessed=True)
    dtypes = {t.dtype for t in tensors}
    result = TensorVal(shape, dtypes.pop() if len(dtypes) == 1 and len(tensors) == 2 else None)
    if len(tensors) == 1:
        kept = tensors[0]
        other = args[2] if args[1] is kept else args[1]
        if ops.as_int(other) is not None:
            result = present_values.forgotten(result.with_(dtype=kept.dtype, domain=kept.domain))  # some replaced
            if _negative(other) is None:  # where(void, num_classes, labels): the value is among them now
                return value_ranges.written(_with_sentinel(value_ranges.masked(result), None, line), ops.as_int(other), line)
            return _with_sentinel(result, _negative(other), line)
        if isinstance(other, DimVal) and isinstance(other.dim, Sym) and (kept.domain is None or kept.domain.sentinel is None):
            # where(void, num_classes, labels) (padding in the kept values: as below, whatever the fill is)
            return value_ranges.written(result.with_(dtype=kept.dtype, domain=kept.domain), other.dim, line)
    # where(pad, full_like(ids, -1), ids): a tensor made of padding puts it in; a tensor that merely may
    # hold padding (where(valid, labels, zeros)) is the usual way of taking it out
    fills = [a for a, n in zip(args[1:], nodes[1:]) if isinstance(a, TensorVal) and a.domain is not None
             and a.domain.sentinel is not None and _is_fill_call(n)]
    if fills:
        return _with_sentinel(result, fills[0].domain.sentinel, fills[0].domain.sentinel_line)
    return _constant_beside(args, nodes, result, line)


def _constant_beside(args, nodes, result, line: int):
    """where(owned, local, full_like(local, num_local)): the fill is among the values where the condition fails,
    as a number would be (`where(void, num_classes, labels)`), whatever the other side holds."""
    if len(args) != 3 or len(nodes) != 3 or not isinstance(result, TensorVal):
        return result
    for fill, node, other in ((args[1], nodes[1], args[2]), (args[2], nodes[2], args[1])):
        constant = constant_ids.fill_of(fill)
        if constant is not None and _is_fill_call(node) and isinstance(other, TensorVal) and other.dtype == fill.dtype:
            kept = result.with_(dtype=other.dtype, domain=other.domain)
            return value_ranges.written(_with_sentinel(value_ranges.masked(kept), None, line), constant, line)
    return result


def _is_fill_call(node) -> bool:
    func = node.func if isinstance(node, ast.Call) else None
    name = func.attr if isinstance(func, ast.Attribute) else (func.id if isinstance(func, ast.Name) else None)
    return name in ("full", "full_like", "new_full")


_UNKNOWN_TENSORISH = None


_UNKNOWN_KWARGS = "**"  # a **spread of unknown keys: no parameter binding is certain


def _list_name(node) -> Optional[str]:
    """The env name of a list being appended to: `xs`, or `self.buffer` (methods keep attributes as such)."""
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id == "self":
        return "self." + node.attr
    return None


def _slice_node(args) -> ast.Slice:
    """The `a:b:c` that `slice(a, b, c)` stands for (`slice(n)` is `:n`; a None argument is an absent bound)."""
    parts = [None if isinstance(a, ast.Constant) and a.value is None else a for a in args]
    if len(parts) == 1:
        return ast.Slice(lower=None, upper=parts[0], step=None)
    return ast.Slice(lower=parts[0], upper=parts[1], step=parts[2] if len(parts) == 3 else None)


def _has_call(node) -> bool:
    return any(isinstance(n, ast.Call) for n in ast.walk(node))


_BUILTIN_DTYPES = {"bool": "bool", "int": "int64", "float": "float64"}


def _picks_rows(args, kwargs) -> bool:
    """argmax/argmin over a dim past 0: the result keeps rows (dim 0 of a 1-d receiver leaves one position)."""
    dim = ops.as_int(args[0] if args else kwargs.get("dim", kwargs.get("axis")))
    return dim is not None and dim >= 1


def _dtype_kw(kwargs) -> Optional[str]:
    v = kwargs.get("dtype")
    if isinstance(v, Literal) and isinstance(v.value, str) and v.value.startswith("dtype:"):
        return v.value[6:]
    return None


def _like_dtype(kwargs, like: TensorVal) -> Optional[str]:
    """The dtype of `torch.ones_like(t, dtype=...)`: the keyword's when given (unknown when it is not a
    literal dtype: `dtype=h.dtype` of an untracked h), t's otherwise."""
    return _dtype_kw(kwargs) if "dtype" in kwargs else like.dtype


def _construct(func: str, args: list, kwargs: dict, node: ast.Call, function=None):
    dtype = _dtype_kw(kwargs)
    unknown_dtype = "dtype" in kwargs and dtype is None
    if func in ("tensor", "as_tensor") and len(args) == 1 and isinstance(args[0], TensorVal) and not unknown_dtype:
        # a tensor made into a tensor: itself (as_tensor) or a copy of it (tensor), cast only when asked
        return args[0] if dtype in (None, args[0].dtype) else ops.cast(args[0], dtype)
    if func in _LEGACY_DTYPES and args and all(isinstance(a, DimVal) and not isinstance(a, scalars.FlagInt)
                                               for a in args):
        # torch.LongTensor(3, 4): ints are sizes to a legacy type (an uninitialised [3, 4]), never data
        return TensorVal(_size_args(args, kwargs), _LEGACY_DTYPES[func], origin="constructor")
    if func in ("tensor", "as_tensor", "Tensor", "FloatTensor", "LongTensor") and len(args) == 1 and not unknown_dtype \
            and scalars.tensor_of_numbers(args[0]) is not None and (
                func in ("Tensor", "FloatTensor") or _literal_shape(node.args[0])[0] is None):
        # a list built from numbers the analysis tracks (a literal one is read below, padding values included)
        made, low = scalars.tensor_of_numbers(args[0], dtype or _LEGACY_DTYPES.get(func)), scalars.lowest_int(args[0])
        return _with_sentinel(made, low, node.lineno) if low is not None and low < 0 and made.dtype == "int64" else made
    if func in ("tensor", "as_tensor") and len(args) == 1 and not unknown_dtype and isinstance(args[0], ops.Repeated) \
            and scalars.is_number(args[0].element):  # a list of Python floats (or ints) of unknown length
        return scalars.tensor_of_numbers(SeqVal((args[0].element,)), dtype).with_(shape=Shape((args[0].length,)))
    if func in ("tensor", "as_tensor") and len(args) == 1 and not unknown_dtype and isinstance(args[0], ops.Repeated) \
            and isinstance(args[0].element, ops.Repeated) and isinstance(args[0].element.element, scalars.ChosenInt):
        # rows of a dict's ints (one encoded sequence per string): [rows, n] of values up to its largest
        made = scalars.tensor_of_numbers(SeqVal((args[0].element.element,)), dtype)
        return made.with_(shape=Shape((args[0].length, args[0].element.length)))
    if func in ("tensor", "as_tensor", "LongTensor") and len(args) == 1 and not unknown_dtype \
            and isinstance(args[0], ops.Repeated) and isinstance(args[0].element, ops.Repeated) \
            and scalars.is_number(args[0].element.element) and isinstance(value(args[0].element.length), int):
        # rows of n numbers each (padded to one length): [rows, n]
        row = args[0].element
        made = scalars.tensor_of_numbers(SeqVal((row.element,)), dtype or _LEGACY_DTYPES.get(func))
        return made.with_(shape=Shape((args[0].length, value(row.length))))
    if func in ("tensor", "as_tensor") and len(args) == 1 and not unknown_dtype and scalars.is_number(args[0]):
        if isinstance(args[0], scalars.FlagInt) and dtype in (None, "int64"):
            return scalars.tensor_of(args[0])  # torch.tensor(int(flag)): 0 or 1
        return TensorVal(Shape(()), dtype or scalars.number_dtype(args[0]), origin="constructor")  # torch.tensor(labels[i]): one number, 0-d
    if func in ("tensor", "as_tensor", "Tensor", "FloatTensor", "LongTensor") and len(args) == 1 and not unknown_dtype \
            and python_annotations.tensor_of(args[0]) is not None:  # `torch.tensor(path)`, path: list[int]
        return python_annotations.tensor_of(args[0], dtype or _LEGACY_DTYPES.get(func))
    if func in ("tensor", "as_tensor", "LongTensor") and len(args) == 1 and not unknown_dtype \
            and written_text.tensor_of_scalars(args[0]) is not None:  # ids of a known count, values unknown
        made = written_text.tensor_of_scalars(args[0])
        return made.with_(dtype=dtype or _LEGACY_DTYPES.get(func))
    if func == "FloatTensor" and len(args) == 1 and isinstance(args[0], SeqVal):
        return None  # FloatTensor([x, y]) is data, not sizes
    if func in _LEGACY_DTYPES and len(args) == 1 and not isinstance(args[0], DimVal) and not kwargs \
            and _literal_shape(node.args[0])[0] is None:  # (a literal is read below, its shape and entries)
        # torch.Tensor(ids) of data the analysis does not know (a dataset's list): the type's dtype all the same
        shape = args[0].shape if isinstance(args[0], (TensorVal, ArrayVal)) else None  # Tensor(np.zeros((B, N)))
        return TensorVal(shape, _LEGACY_DTYPES[func], origin="constructor")
    if func in ("randn", "rand", "zeros", "ones", "empty", "FloatTensor"):
        default = None if unknown_dtype else (dtype or ("float32" if func != "LongTensor" else "int64"))
        return TensorVal(_size_args(args, kwargs), default, origin="constructor", filled=constant_fills.fill(func, kwargs),
                         **signs.made_by(func))  # draws in [0, 1), normal draws
    if func == "full":
        fill = args[1] if len(args) > 1 else kwargs.get("fill_value")
        # the fill's Python type decides (torch.full((n,), x.item()) of a float tensor is float32); bool before int
        guess = "bool" if scalars.is_bool(fill) else "int64" if isinstance(fill, DimVal) else "float32" if scalars.is_float_number(fill) else None
        shape = _size_args(args[:1], {}) if args else None
        return TensorVal(shape, None if unknown_dtype else (dtype or guess), origin="constructor",
                         filled=constant_fills.fill(func, kwargs))
    if func == "randint":
        # randint(high, size) or randint(low, high, size): bounds by position, known or not
        ints = [a if isinstance(a, DimVal) else None for a in args if not isinstance(a, SeqVal)][:2]
        size = kwargs.get("size") or next((a for a in args if isinstance(a, SeqVal)), None)
        high = kwargs.get("high", ints[1] if len(ints) >= 2 else (ints[0] if ints else None))
        low = kwargs.get("low", ints[0] if len(ints) >= 2 else DimVal(0))
        shape = _size_args([size], {}) if isinstance(size, SeqVal) else None
        domain = None
        start = value(low.dim) if isinstance(low, DimVal) and low.dim is not None else None
        if isinstance(high, DimVal) and high.dim is not None and start is not None and start >= 0 \
                and (value(high.dim) is None or start < value(high.dim)):  # 1-based labels reach high - 1 too
            domain = Domain(high.dim, origin=f"randint() values in [{start}, {high.dim})", repeats=True)
        elif isinstance(high, DimVal) or high is None:  # draws repeat whatever their bounds (`randint(1, len(TAGS), ...)`)
            domain = Domain(None, origin="randint() values", repeats=True)
        return TensorVal(shape, None if unknown_dtype else (dtype or "int64"), domain, origin="constructor")
    if func == "eye":  # eye(n) is [n, n], eye(n, m) [n, m]
        sizes = [a for a in args if isinstance(a, DimVal)][:2]
        n = kwargs.get("n", sizes[0] if sizes else None)
        m = kwargs.get("m", sizes[1] if len(sizes) > 1 else n)
        shape = Shape((n.dim, m.dim)) if isinstance(n, DimVal) and isinstance(m, DimVal) and len(args) <= 2 else None
        return TensorVal(shape, None if unknown_dtype else (dtype or "float32"), origin="constructor")
    if func == "randperm":
        n = args[0] if args else None
        shape = Shape((n.dim,)) if isinstance(n, DimVal) else None
        positions = Domain(n.dim, origin=f"randperm({dim_text(n.dim)}) positions") if isinstance(n, DimVal) and n.dim is not None else None
        return TensorVal(shape, None if unknown_dtype else (dtype or "int64"), positions, origin="constructor")
    if func in ("linspace", "logspace"):  # (start, end, steps): steps floats
        steps = args[2] if len(args) > 2 else kwargs.get("steps")
        # always 1-d, of `steps` entries even when that count is unknown
        return TensorVal(Shape((steps.dim if isinstance(steps, DimVal) else None,)),
                         None if unknown_dtype else (dtype or "float32"), origin="constructor")
    if func == "arange":
        return _arange(args, kwargs, None if unknown_dtype else dtype, unknown_dtype)
    if func in ("tensor", "as_tensor") and node.args and scalars.tensor_of(args[0]) is not None and dtype is None:
        return scalars.tensor_of(args[0])
    if func in ("tensor", "as_tensor") and node.args and isinstance(args[0], maybe_empty.MaybeEmptyList) and dtype is None \
            and not unknown_dtype:
        name = node.args[0].id if isinstance(node.args[0], ast.Name) else None
        return maybe_empty.tensor_of(args[0], name, function, node)
    if (func in ("tensor", "as_tensor") or func in _INT_LEGACY) and node.args:
        shape, guess = _literal_shape(node.args[0])
        if shape is None:
            shape, guess = scalar_list_shape(node.args[0])  # `torch.tensor([self.step % self.window])`: [1]
        if func in _INT_LEGACY:
            guess = _LEGACY_DTYPES[func] if shape is not None else None
        made = TensorVal(shape, None if unknown_dtype else (dtype or guess), origin="constructor")
        if shape is not None and guess == "int64":
            padding = padding_of_literal(node.args[0])  # not a lone -1 among positions (`[0, -1]`)
            if padding is not None:
                return _with_sentinel(made, padding, node.lineno)
        return made
    return None


def _arange(args: list, kwargs: dict, dtype, unknown_dtype: bool):
    """arange(end), arange(start, end), arange(start, end, step), each also by keyword (`step=beam_size`):
    ceil((end - start) / step) entries, the length known where the three are numbers (or the step is 1 and
    the start 0: arange(0, n) has n entries, n named or not)."""
    bound = arange_positions.arguments(args, kwargs)
    if bound is None:
        return TensorVal(None, None if unknown_dtype else dtype)
    given = [bound[key] for key in ("start", "end", "step") if key in bound]
    # a float written out, or one of unknown value (`n / k` of ints is a Python float): float32 steps
    floats = [a for a in given if isinstance(a, Literal) and isinstance(a.value, float) or isinstance(a, scalars.NumberVal)]
    ints = {key: a.dim for key, a in bound.items() if isinstance(a, DimVal)}
    start, step = arange_positions.start_and_step(bound)
    end = ints.get("end")
    length = None
    if end is not None and start == 0 and step == 1:
        length = end  # arange(n), arange(0, n): n entries, the size keeps its name
    elif end is not None and isinstance(start, int) and isinstance(step, int) and step != 0 and value(end) is not None:
        length = max(0, -(-(value(end) - start) // step))
    guess = "float32" if floats else ("int64" if given and len(ints) == len(given) else None)
    # the largest value is reached: end - 1 for a step of 1, the last step's value for a larger one
    top = end if step == 1 else start + (length - 1) * step + 1 if isinstance(length, int) and length > 0 \
        and isinstance(step, int) and step > 1 else None
    positions = arange_positions.domain(top, start, step, end) if isinstance(start, int) and top is not None and not floats \
        and dtype in (None, "int64", "int32") else None
    return TensorVal(Shape((length,)) if "end" in bound else None, dtype or guess, positions, origin="constructor")


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
