"""Plain subscripts as sites: `x[key]`, `x[key] = v`, `x[rows, key] += v` with a float key (GL008).

Advanced indexing takes integer and bool tensors only: a float tensor anywhere in the key raises
IndexError, in a read, a write and an in-place update alike. Two kinds of evidence, each definite:

* the interpreter knows the key is a float tensor (a float constructor or array, `.float()`, a
  `Float[...]` annotation, arithmetic on floats) and the subscripted value is not known to be a list,
  dict or other container;
* the key is made, in the function, by an expression whose result is floating whatever its operands
  are (a true division `/`, `* 0.5`, `.mean()`, `.float()`, and what keeps a float a float: `.floor()`,
  `torch.round`, `.unsqueeze()` ...), and the subscripted value is a known tensor. A Python float key
  raises as well (`x[n / 2]`), so unknown operands do not matter, but only a tensor's subscript is
  taken: a dict may be keyed by floats.
"""
from __future__ import annotations

import ast
import re
from typing import Optional

from ..dims import Shape, Sym, broadcast, dim_text, must_differ, must_equal, must_exceed, must_scale_apart, value, varies
from ..rules import gl001_rank_mismatch as rank_mismatch
from ..rules import gl003_index_too_large as too_large
from ..rules import gl008_index_dtype as index_dtype
from ..rules import gl017_advanced_index_per_row as per_row
from . import exact_values, flat_positions, script_drivers
from . import tensor_ops as ops
from .text_scan import file_test
from .normalised_axis import assigned_value
from .tensor_ops import FLOAT_DTYPES
from . import declared_index_dtypes, key_items, text_scan
from .tree_walk import called_name
from .values import SeqVal, TensorVal

_TO_FLOAT = {"float", "double", "half", "bfloat16", "mean"}  # .mean() of an integer tensor raises: floats only
# tensor methods and torch functions whose result keeps the operand's floating dtype
_KEEPS_FLOAT = {"floor", "ceil", "round", "trunc", "frac", "abs", "neg", "clamp", "clip", "clamp_min", "clamp_max",
                "squeeze", "unsqueeze", "view", "reshape", "flatten", "contiguous", "clone", "detach", "cpu", "cuda",
                "expand", "expand_as", "repeat", "t", "transpose", "permute", "sqrt", "exp", "log",
                "unique", "unique_consecutive", "flip", "roll"}
_TUPLE_KEYWORDS = ("return_inverse", "return_counts")  # unique(..., return_inverse=True) is a tuple
# torch functions that make floating tensors unless given a dtype
_FLOAT_CONSTRUCTORS = {"linspace", "logspace", "rand", "randn", "rand_like", "randn_like"}
_MAX_NAMES = 4  # names followed back to their one assignment


def check(interp, node: ast.Subscript, owner, key) -> None:
    """The checks of a subscript read or write: float keys (GL008), unbroadcastable index tensors (GL017)."""
    if owner is None and not _script(interp.source) and not _tensor_in_key(node, key):
        return  # most subscripts of a library: `config[name]`, `self.cache[i]`, `x[:, 0]`: nothing to learn
    check_float_key(interp, node, owner, key)
    check_index_shapes(interp, node, owner, key)
    flat_positions.check_subscript(interp, node, owner, key)  # GL030: flat[rows * S + cols] of an [R, C] grid
    check_mask_shape(interp, node, owner, key)  # GL001: x[mask] with a mask of other dims


def check_put_keys(interp, node: ast.Call, owner, args) -> None:
    """`x.index_put_((k1, k2), v)` indexes x as `x[k1, k2] = v` does: its keys get the subscript's dtype
    checks (a uint8 key is read as a mask, a float key raises)."""
    indices = node.args[0] if node.args else None
    if not isinstance(owner, TensorVal) or not isinstance(indices, (ast.Tuple, ast.List)) or not indices.elts \
            or not args or not isinstance(args[0], SeqVal) or len(args[0].items) != len(indices.elts):
        return
    key = ast.Tuple(elts=list(indices.elts), ctx=ast.Load())
    subscript = ast.copy_location(ast.Subscript(value=node.func.value, slice=key, ctx=ast.Load()), node)
    subscript.end_lineno, subscript.end_col_offset = node.end_lineno, node.end_col_offset
    check_float_key(interp, subscript, owner, args[0])


def _tensor_in_key(node: ast.Subscript, key) -> bool:
    """The key holds a tracked tensor, or a call or arithmetic that may make a float one."""
    items = key.items if isinstance(key, SeqVal) else (key,)
    elements = node.slice.elts if isinstance(node.slice, ast.Tuple) else (node.slice,)
    return any(isinstance(item, TensorVal) for item in items) or any(isinstance(e, (ast.Call, ast.BinOp)) for e in elements)


def check_float_key(interp, node: ast.Subscript, owner, key) -> None:
    """Flag each float element of the key of a subscript of a tensor (see the module docstring)."""
    if owner is not None and not isinstance(owner, TensorVal):
        return  # a list, a dict, an array, a layer list: other errors, other messages
    pairs = key_items.aligned(node, key)
    if pairs is None:
        return  # x[*idx]: elements and values do not line up
    elements, items = [e for e, _ in pairs], [v for _, v in pairs]
    segment = interp.source.segment
    for position, (element, item) in enumerate(pairs):
        if isinstance(element, ast.Slice):
            continue
        if isinstance(item, TensorVal) and _flags_as_positions(owner, item, elements[:position]):
            interp.flag(node, index_dtype.check_flags_as_positions(segment(node), segment(element), item.dtype,
                                                                   item.domain.origin), element)
            continue
        flags = _inverted_flags(interp, element)
        if flags is not None and _flags_as_positions(owner, flags, elements[:position]):
            # `~flags` of 0/1 integers is -1 and -2: positions from the end, not the mask's complement
            interp.flag(node, index_dtype.check_flags_as_positions(segment(node), segment(element), flags.dtype,
                                                                   flags.domain.origin, inverted=True),
                        element.operand)  # the fix converts the flags, then inverts: `~flags.bool()`
            continue
        if isinstance(item, TensorVal) and item.dtype in NARROW_DTYPES:
            violation = _narrow_key(segment, node, owner, item, element, elements[:position])
            if violation is not None:
                interp.flag(node, violation, element)
            continue
        if isinstance(item, TensorVal) and item.dtype is None and item.domain is not None and item.domain.made_float \
                and isinstance(owner, TensorVal):
            # a float of a dtype not known (a true division of a tensor whose dtype is not known)
            violation = index_dtype.check_subscript_key(segment(node), segment(element), "floating", item.domain)
        elif isinstance(item, TensorVal) and item.dtype in FLOAT_DTYPES:
            if owner is None and (item.domain is None or item.domain.made_float is None):
                continue  # `self.optimizer.state[param] = ...`: an unknown owner may be a dict keyed by tensors
            violation = index_dtype.check_subscript_key(segment(node), segment(element), item.dtype, item.domain)
            if item.domain is None or item.domain.made_float is None:  # only an annotation may say float
                use = f"`{segment(node)}` uses `{segment(element)}` as an index"
                declared = declared_index_dtypes.contradicted(interp, element, use, item.dtype)
                if declared is None:
                    continue  # this parameter's contradiction is reported at its first use
                violation = declared or violation
        else:
            # following names to their assignment walks the function once: in scripts only, as the prefilter
            made = float_made(element, interp.function, node.lineno, 0 if _script(interp.source) else _MAX_NAMES)
            if made is None or not (isinstance(owner, TensorVal) or _array_key(made, items)):
                continue
            violation = index_dtype.check_subscript_key(segment(node), segment(element), "floating", None, made)
        interp.flag(node, violation, element)


def _inverted_flags(interp, element):
    """The 0/1 integer tensor `element` inverts bitwise (`~flags`), else None."""
    if not (isinstance(element, ast.UnaryOp) and isinstance(element.op, ast.Invert) and isinstance(element.operand, ast.Name)):
        return None
    held = interp.env.get(element.operand.id)
    return held if isinstance(held, TensorVal) and held.domain is not None and held.domain.binary else None


NARROW_DTYPES = ("uint8", "int8", "int16")


def _flags_as_positions(owner, item: TensorVal, before) -> bool:
    """A 0/1 integer key (Domain.binary) shaped like the dims it covers (a mask's shape, [N] for x [N, ...]),
    after plain slices only, into a dim of more than two entries: positions 0 and 1, where a mask was meant."""
    if item.domain is None or not item.domain.binary or item.dtype not in ("int64", "int32") or not isinstance(owner, TensorVal):
        return False
    shape, x = item.shape, owner.shape
    if shape is None or shape.variadic or not shape.dims or x is None or x.variadic or not all(isinstance(e, ast.Slice) for e in before):
        return False
    covered = x.dims[len(before):len(before) + len(shape.dims)]
    # one flag per row of x by a shared name (the batch), or by number past a two-row table's size
    return len(covered) == len(shape.dims) and all(must_equal(a, b) and varies(a) for a, b in zip(shape.dims, covered)) \
        and (isinstance(covered[0], Sym) and value(covered[0]) is None or must_exceed(covered[0], 2))


def _narrow_key(segment, node: ast.Subscript, owner, item: TensorVal, element, before):
    """GL008 for an int8/int16/uint8 key element (see check_narrow_key); None unless definite."""
    shape = item.shape
    rank = len(shape.dims) if shape is not None and not shape.variadic else None
    positions = item.dtype == "uint8" and _positions(item.domain)

    def mask_of_positions():
        # positions (a permutation, top-k, argsort) held as uint8 are a mask to torch whatever the shapes
        return index_dtype.check_narrow_key(segment(node), segment(element), "uint8", rank, positions=item.domain.origin,
                                            sizes_known=False) if positions else None
    if rank is None:
        return mask_of_positions()
    if item.dtype != "uint8":  # a 0-d int8/int16 tensor is taken as a Python int
        return index_dtype.check_narrow_key(segment(node), segment(element), item.dtype, rank) if rank else None
    if rank == 0:
        return index_dtype.check_narrow_key(segment(node), segment(element), "uint8", 0)
    # a mask covers the dims from its position: known only after plain slices and integers
    if not isinstance(owner, TensorVal) or owner.shape is None or owner.shape.variadic \
            or not all(isinstance(e, ast.Slice) or (isinstance(e, ast.Constant) and isinstance(e.value, int)) for e in before):
        return mask_of_positions()
    covered = owner.shape.dims[len(before):len(before) + rank]
    for axis, (mine, theirs) in enumerate(zip(shape.dims, covered)):
        if must_differ(mine, theirs):
            mismatch = f"its dim {axis} has size {dim_text(mine)} where the tensor's dim {len(before) + axis} has {dim_text(theirs)}"
            return index_dtype.check_narrow_key(segment(node), segment(element), "uint8", rank, mismatch)
    if positions:
        # of the dims' own size, but its values are positions (a permutation, top-k, argsort): meant as indices
        return index_dtype.check_narrow_key(segment(node), segment(element), "uint8", rank, positions=item.domain.origin)
    return None


@file_test
def narrow_positions(text: str) -> bool:
    """Positions made (randperm, argsort, a permutation) and cast to uint8 somewhere in the file: the file
    whose every part keyed by a name is read, as the table may be made in one class and indexed in another
    that names no torch. (Any narrow dtype alone is too common: quantization code spells int8 everywhere.)"""
    return ("uint8" in text or ".byte()" in text) and any(m in text for m in ("randperm(", "argsort(", "permutation(")) \
        and keyed_by_name(text)


def _positions(domain) -> bool:
    """Values made as positions of a dim (randperm, argsort, top-k): no mask, no ids, no padding."""
    return domain is not None and domain.size is not None and bool(domain.origin) and not domain.category \
        and not domain.binary and domain.sentinel is None and domain.made_float is None


@file_test
def narrow_keys(text: str) -> bool:
    """A narrow integer dtype spelled beside a name used as a subscript key: the blocks worth parsing for
    GL008 on int8/int16/uint8 keys. (Asked of the whole file by the prefilter and by the block choice.)"""
    return _narrow_cue(text) and keyed_by_name(text)


def _narrow_cue(text: str) -> bool:
    """Whether one of _NARROW_CUES is in the text. Every cue costs a pass over it: `nt8` (in `int8` and
    `Int8[`) and `nt16` are looked for first, so a text holding neither costs six passes instead of eight."""
    return ("nt8" in text and ("Int8[" in text or "int8" in text)) or ("nt16" in text and ("Int16[" in text or "int16" in text)) \
        or any(cue in text for cue in _OTHER_CUES)


# `uint8` and `UInt8[` are left out: each holds a cue below (`int8`, `Int8[`)
_NARROW_CUES = ("Int8[", "Int16[", "int8", "int16", ".byte()", ".char()", ".short()", "ByteTensor")
_OTHER_CUES = _NARROW_CUES[4:]


def check_written_shape(interp, node: ast.Subscript, owner, key, written, value_node) -> None:
    """GL003: `x[idx] = v` with idx an integer tensor (or a tuple holding one) and v of a shape that
    cannot broadcast to the selection `x[idx]`; only sizes both known (as numbers) count, or a named
    size against a whole multiple of it (`2*M` rows from a cat, for `M` indices)."""
    if not isinstance(owner, TensorVal) or not isinstance(written, TensorVal) or value_node is None:
        return
    items = key.items if isinstance(key, SeqVal) else (key,)
    if not any(isinstance(k, TensorVal) and k.dtype in ("int64", "int32") for k in items):
        selected = _masked_selection(owner, key)  # a mask selects a count only its known entries state
        if selected is None:
            return  # no tensor: basic slicing
    else:
        selected = _selection(owner, key) if isinstance(key, SeqVal) else ops.index_tensor(owner, key)
    shape = written.shape
    if not isinstance(selected, TensorVal) or selected.shape is None or selected.shape.variadic \
            or shape is None or shape.variadic or len(shape.dims) > len(selected.shape.dims):
        return
    chosen = selected.shape.dims
    for offset in range(1, len(shape.dims) + 1):
        mine, theirs = shape.dims[-offset], chosen[-offset]
        if value(mine) not in (None, 1) and must_differ(mine, theirs) or must_scale_apart(mine, theirs):
            segment = interp.source.segment
            interp.flag(node, too_large.check_subscript_write(
                f"{segment(node)} = ...", segment(value_node), shape, selected.shape, len(chosen) - offset), None)
            return


def _masked_selection(owner: TensorVal, key) -> Optional[TensorVal]:
    """`x[mask]` for a mask known entry by entry (exact_values): its true entries, then x's other dims."""
    count = exact_values.selected_count(owner, key) if isinstance(key, TensorVal) else None
    if count is None or owner.shape is None or owner.shape.variadic:
        return None
    rest = owner.shape.dims[len(key.shape.dims):]
    return TensorVal(Shape((count,) + tuple(rest)), owner.dtype)


# `x[torch.arange(x.size(1)), last]`: row numbers counted from a size other than dim 0's, beside another index
_KEY_OPENS = re.compile(r"\w\[\s*(?:torch\.)?$")  # read backwards from `arange(`: the key's opening bracket
_SIZE_AFTER = re.compile(r"\s*[\w.]+\.(?:size\(\s*-?[1-9]|shape\[\s*-?[1-9])(?:[^()]|\([^()]*\))*\)[\w.()]*\s*,")


@file_test
def row_numbers_key(text: str) -> bool:
    """A key of row numbers counted along another dim than the first, beside another index
    (`x[torch.arange(x.size(1)), lengths - 1]`): the blocks worth an analysis of their own for GL017's index
    shapes, in a library as in a script. (Row numbers of dim 0, `torch.arange(batch_size)`, are in every
    sequence-classification head of a model library, and right there.)"""
    return any(_KEY_OPENS.search(text, max(0, at - 12), at) and _SIZE_AFTER.match(text, at + 7)
               for at in text_scan.positions(text, "arange("))


def check_index_shapes(interp, node: ast.Subscript, owner, key) -> None:
    """GL017 (error): `x[rows, idx]` with integer index tensors whose known sizes cannot broadcast,
    typically `x[torch.arange(B), idx]` with idx [B, K] (one row number per row, K picks per row)."""
    if not isinstance(key, SeqVal) or key.names or not isinstance(node.slice, ast.Tuple) \
            or len(node.slice.elts) != len(key.items) or (owner is not None and not isinstance(owner, TensorVal)):
        return
    shaped = [(element, item.shape) for element, item in zip(node.slice.elts, key.items)
              if isinstance(item, TensorVal) and item.dtype in ("int64", "int32") and item.shape is not None
              and not item.shape.variadic]
    for k, (first_node, first) in enumerate(shaped):
        for second_node, second in shaped[k + 1:]:
            for offset in range(1, min(len(first.dims), len(second.dims)) + 1):
                a, b = first.dims[-offset], second.dims[-offset]
                if value(a) not in (None, 1) and value(b) not in (None, 1) and must_differ(a, b) \
                        or _two_dims_of(owner, a, b):
                    segment = interp.source.segment
                    interp.flag(node, per_row.check_unbroadcastable(
                        segment(node), segment(first_node), first, segment(second_node), second, offset), None)
                    return


def _two_dims_of(owner, a, b) -> bool:
    """`data[torch.arange(data.size(1)), lengths - 1]` of a `data` [B, S, H]: index sizes named as two
    different dims of the tensor indexed (S and B), neither known: they broadcast only where the two dims
    happen to be equal, which the tensor's own shape does not say."""
    if not (isinstance(a, Sym) and isinstance(b, Sym)) or a.size is not None or b.size is not None \
            or must_equal(a, b) or not isinstance(owner, TensorVal) or owner.shape is None:
        return False
    dims = owner.shape.dims
    at_a = [i for i, d in enumerate(dims) if isinstance(d, Sym) and must_equal(d, a)]
    at_b = [i for i, d in enumerate(dims) if isinstance(d, Sym) and must_equal(d, b)]
    return len(at_a) == 1 and len(at_b) == 1 and at_a != at_b


def _selection(owner: TensorVal, key: SeqVal):
    """x[a, :, b] for integer tensors and full slices: the broadcast index shape in place of the
    indexed dims when the tensors are adjacent, first otherwise (numpy's rule); None when unsure."""
    dims = owner.shape.dims if owner.shape is not None and not owner.shape.variadic else None
    if dims is None or key.names or len(key.items) > len(dims):
        return None
    tensors, sliced = [], {}
    for position, item in enumerate(key.items):
        if isinstance(item, TensorVal) and item.dtype in ("int64", "int32") and item.shape is not None \
                and not item.shape.variadic:
            tensors.append(position)
        elif isinstance(item, ops.SliceVal):  # `x[rows, :3 * k]`: a slice keeps its dim, as long as it cuts it
            sliced[position] = dims[position] if ops.whole_slice(item) else item.apply(dims[position])
        else:
            return None
    kept = list(sliced.values())
    shaped = None
    for position in tensors:
        shaped = key.items[position].shape if shaped is None else broadcast(shaped, key.items[position].shape)
        if shaped is None:
            return None
    rest = tuple(dims[len(key.items):])
    if tensors == list(range(tensors[0], tensors[-1] + 1)):
        before = tuple(sliced[p] for p in range(tensors[0]))
        after = tuple(sliced[p] for p in range(tensors[-1] + 1, len(key.items)))
        return TensorVal(Shape(before + tuple(shaped.dims) + after + rest), owner.dtype)
    return TensorVal(Shape(tuple(shaped.dims) + tuple(kept) + rest), owner.dtype)


def _script(source) -> bool:
    """The file runs as a script (script_drivers); remembered on the source."""
    found = getattr(source, "_is_script", None)
    if found is None:
        found = source._is_script = script_drivers.is_script(source.text)
    return found


def _array_key(made: str, items) -> bool:
    """An untracked value subscripted by a key that is an array or tensor (made by a tensor method,
    or beside a known tensor in `x[rows, key]`): a tensor or array, as a dict keyed by tensors is rare."""
    return made.startswith(("`.", "`torch.")) or any(isinstance(item, TensorVal) and (item.shape is not None or item.dtype)
                                        for item in items)


def float_made(node, function, line: int, names: int = 0) -> Optional[str]:
    """How node's value is a float whatever its operands are, or None."""
    if isinstance(node, ast.Name):
        if names >= _MAX_NAMES:
            return None
        value = assigned_value(node, function, line)
        return None if value is None else float_made(value, function, line, names + 1)
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, (ast.USub, ast.UAdd)):
        return float_made(node.operand, function, line, names)
    if isinstance(node, ast.BinOp):
        if isinstance(node.op, ast.Div):
            return f"the true division `/` at line {node.lineno}"
        if not isinstance(node.op, (ast.Add, ast.Sub, ast.Mult)):
            return None
        for side in (node.left, node.right):
            if isinstance(side, ast.Constant) and isinstance(side.value, float):
                return f"the product with the float `{side.value!r}` at line {node.lineno}" \
                    if isinstance(node.op, ast.Mult) else f"the float `{side.value!r}` at line {node.lineno}"
        return float_made(node.left, function, line, names) or float_made(node.right, function, line, names)
    if isinstance(node, ast.Call):
        name = called_name(node)
        if isinstance(node.func, ast.Attribute) and name in _TO_FLOAT:
            if name == "mean" or not node.args:  # x.float(), not a module's `.half(x)`
                return f"`.{name}()` at line {node.lineno}"
            return None
        if name in _FLOAT_CONSTRUCTORS and _called_on_torch(node) and not any(k.arg == "dtype" for k in node.keywords):
            return f"`torch.{name}()` at line {node.lineno}, which makes floats"
        if isinstance(node.func, ast.Attribute) and name in _KEEPS_FLOAT and not any(k.arg in _TUPLE_KEYWORDS for k in node.keywords):
            receiver = node.func.value
            if isinstance(receiver, ast.Name) and receiver.id in ("torch", "np", "numpy", "math"):
                return _torch_function(node, name, function, line, names)
            return float_made(receiver, function, line, names)
    return None


def _called_on_torch(node: ast.Call) -> bool:
    return isinstance(node.func, ast.Attribute) and isinstance(node.func.value, ast.Name) and node.func.value.id == "torch"


def _torch_function(node: ast.Call, name: str, function, line: int, names: int) -> Optional[str]:
    """`torch.floor(a / b)` is still a float tensor; `math.floor(a / b)` and `np.round` of a Python float
    are not checked (math gives an int)."""
    if node.func.value.id != "torch" or not node.args:
        return None
    return float_made(node.args[0], function, line, names)


# what makes a float whatever the operands (the cheap needles of the prefilter below)
_FLOAT_CUES = ("/", ".float()", ".mean(", ".double()", ".half()", "* 0.", "*0.")
_ASSIGNED_NAME = re.compile(r"[ \t]*([A-Za-z_]\w*)[ \t]*(?::[^=\n]*)?=[^=]")
_DIVIDED_KEY = re.compile(r"\[[^\[\]:\n]*[^/\n]/[^/\n][^\[\]:\n]*\]")  # [a / b]: no slice, no `//`


def spelled_in(text: str) -> bool:
    """A name assigned from a float-making expression and used as a subscript key in the same text, or a
    key holding a true division: the blocks worth parsing for GL008 on plain subscripts."""
    if "[" not in text:
        return False
    names = set()
    for cue in _FLOAT_CUES:
        for at in text_scan.positions(text, cue):
            if cue == "/" and (text[at + 1:at + 2] in ("/", "=") or text[at - 1:at] in ("/", "<")):
                continue  # `//`, `/=`, `</`: not a true division's float
            start = text.rfind("\n", 0, at) + 1
            if cue == "/" and _divided_key(text, text.rfind("[", start, at)):
                return True
            found = _ASSIGNED_NAME.match(text, start)
            if found is not None and found.end() <= at + 1:
                names.add(found.group(1))
    return bool(names) and not names.isdisjoint(_KEY_NAME.findall(text))


# `[name]`, `[name, ...]`, `..., name]`: a name as a whole element of a subscript
_KEY_NAME = re.compile(r"[\[,][ \t]*([A-Za-z_]\w*+)[ \t]*(?=[\],])")


def keyed_by_name(text: str) -> bool:
    """Some subscript has a plain name as a whole element of its key (`p[rows]`, `x[:, ids]`)."""
    return "[" in text and _KEY_NAME.search(text) is not None


def _divided_key(text: str, bracket: int) -> bool:
    """`x[a / b]` at `bracket`: a subscript (after a name or a closing bracket), not a list literal."""
    before = text[bracket - 1:bracket] if bracket > 0 else ""
    return bool(before) and (before.isalnum() or before in "_)]") and _DIVIDED_KEY.match(text, bracket) is not None


def check_mask_shape(interp, node: ast.Subscript, owner, key) -> None:
    """GL001: a bool mask in the key, after plain slices only, whose dims differ from the dims of x it covers
    (`conf[ious > t] = 0` with ious flattened [A*H*W] and conf [A, H, W]): torch raises IndexError."""
    pairs = key_items.aligned(node, key)
    if not isinstance(owner, TensorVal) or owner.shape is None or owner.shape.variadic or pairs is None:
        return
    elements = [e for e, _ in pairs]
    for start, (element, item) in enumerate(pairs):
        if isinstance(element, ast.Slice):
            continue
        if not isinstance(item, TensorVal) or item.dtype != "bool" or item.shape is None or item.shape.variadic \
                or not item.shape.dims or not key_items.after_slices_only(elements, start):
            return  # past an int or an index tensor, the dims no longer line up one to one
        covered = owner.shape.dims[start:start + len(item.shape.dims)]
        for axis, mine in enumerate(item.shape.dims):
            if axis >= len(covered) or must_differ(mine, covered[axis]):
                segment = interp.source.segment
                interp.flag(node, rank_mismatch.check_mask_shape(segment(node), segment(element), item.shape,
                                                                 segment(node.value), owner.shape, start, axis), element)
                return
        return
