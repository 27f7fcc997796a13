"""Batches of a DataLoader, from what one item of its dataset holds.

Much index data reaches a model through `for batch in DataLoader(dataset, batch_size=b)`: label masks
read as `uint8` (`torch.from_numpy` of an image array), class ids kept as `int32`, targets computed in
float. The default collate keeps each leaf's dtype and stacks the items on a new first dim:

* a tensor [*s] becomes [b, *s] with its dtype; a NumPy array becomes a tensor of its dtype;
* a Python int becomes int64 [b], a Python float float64 [b];
* a dict collates per key, a tuple or list per position (`for x, y in loader`).

`next(iter(loader))` is one batch, `tqdm(loader)` yields the same batches, and `dataset[i]` is one item.
`Subset(ds, ids)` and each part of `random_split(ds, sizes)` have ds's items.
The item is what the dataset's own `__getitem__` returns (a class of this file, run with the facts its
constructor was given), or one row of each tensor of a `TensorDataset(x, y)`. A `collate_fn` that is a
function of this file is run on a list of such items (on a list it knows nothing of when the item is not
known: what it builds itself, an `np.zeros` buffer's float64, holds for any batch); any other collate, or `batch_size=None` (no
batching), leaves the batch unknown. The batch dim is one named size shared by every leaf of a batch
(`B of loader`): its value is not known (the last batch may be smaller), but the leaves of one batch agree
on it, so `pred - batch["y"]` of a kept [B, 1] column and a [B] target is known to grow to [B, B].
"""
from __future__ import annotations

import ast
import re
from dataclasses import dataclass

from ..dims import Dim, Shape, Sym
from . import tensor_lists
from . import tensor_ops as ops
from .config import DictVal
from .modules import InstanceVal
from .numpy_values import ArrayVal
from .scalars import NumberVal
from .values import DimVal, Literal, SeqVal, TensorVal

_LOADERS = ("DataLoader",)
_TENSOR_DATASETS = ("TensorDataset",)
_SUBSETS = ("Subset", "random_split")  # items of the dataset they take part of


@dataclass(frozen=True)
class DatasetVal:
    """A dataset whose item is known without running code of the file (`TensorDataset(x, y)`), and its
    length when known (the tensors' first size)."""

    item: object
    length: Dim = None


def as_items(value):
    """`for x, y in dataset` / `[y for _, y in dataset]` over a TensorDataset: its items, as a list of like items."""
    return ops.Repeated(value.item, value.length) if isinstance(value, DatasetVal) else value


def is_loader(func: str) -> bool:
    return func in _LOADERS or func in _TENSOR_DATASETS or func in _SUBSETS


def call(interp, func: str, node: ast.Call, args: list, kwargs: dict):
    """`TensorDataset(...)` -> DatasetVal; `DataLoader(dataset, ...)` -> the list of its batches (Repeated)."""
    if func in _SUBSETS:  # Subset(ds, ids) is ds's items; random_split(ds, sizes) a list of such subsets
        dataset = args[0] if args else kwargs.get("dataset")
        if not isinstance(dataset, (InstanceVal, DatasetVal)):
            return None
        return dataset if func == "Subset" else ops.Repeated(dataset)
    if func in _TENSOR_DATASETS:
        if kwargs or not args or not all(isinstance(a, TensorVal) for a in args):
            return None
        first = args[0].shape
        length = first.dims[0] if first is not None and not first.variadic and first.dims else None
        return DatasetVal(SeqVal(tuple(_row(a) for a in args)), length)
    dataset = args[0] if args else kwargs.get("dataset")
    if "batch_sampler" in kwargs or any(k.arg is None for k in node.keywords):
        return None  # options that may set a collate or the batching
    size_node = node.args[1] if len(node.args) > 1 else next((k.value for k in node.keywords if k.arg == "batch_size"), None)
    if isinstance(size_node, ast.Constant) and size_node.value is None:
        return None  # no batching: items come one at a time, unstacked
    item = _item(interp, dataset, node)
    if "collate_fn" in kwargs:
        batch = _own_collate(interp, node, item)
    else:
        batch = collate(item, _batch_dim(size_node, interp.source.segment))
    return ops.Repeated(batch) if batch is not None else None


def _own_collate(interp, node: ast.Call, item):
    """`collate_fn=fn` with fn a function of this file: what it returns for a list of such items."""
    fn = next(k.value for k in node.keywords if k.arg == "collate_fn")
    if isinstance(fn, ast.Lambda):
        return _lambda_collate(interp, node, fn, item)  # collate_fn=lambda b: pad_collate(b, pad_id)
    callee = interp.module.functions.get(fn.id) if isinstance(fn, ast.Name) and interp.module is not None else None
    if callee is None:
        return None
    # items the analysis does not know: what the collate makes of any list (an np.zeros buffer is float64 all the same)
    return interp.module.call(interp, callee, node, [ops.Repeated(item) if item is not None else None], {}, silent=True)


def _lambda_collate(interp, node: ast.Call, fn: ast.Lambda, item):
    """`lambda b: collate(b, pad_id)`: the function of this file it calls, the batch where the lambda passes its
    parameter and the other arguments as the loader's scope has them."""
    params = fn.args.args
    body = fn.body
    if len(params) != 1 or fn.args.vararg or fn.args.kwarg or not isinstance(body, ast.Call) \
            or not isinstance(body.func, ast.Name) or interp.module is None:
        return None
    callee = interp.module.functions.get(body.func.id)
    if callee is None or any(isinstance(a, ast.Starred) for a in body.args) or any(k.arg is None for k in body.keywords):
        return None
    batch = params[0].arg

    def given(arg):
        if isinstance(arg, ast.Name) and arg.id == batch:
            return ops.Repeated(item) if item is not None else None
        return interp.expr(arg)
    args = [given(a) for a in body.args]
    kwargs = {k.arg: given(k.value) for k in body.keywords}
    return interp.module.call(interp, callee, body, args, kwargs, silent=True)


def item(interp, dataset, node: ast.Subscript, key):
    """`dataset[key]`: what its `__getitem__` returns for that key (a class of this file); None for anything else."""
    return _item(interp, dataset, node, key) if isinstance(dataset, InstanceVal) else None


def iterated(func: str, args: list):
    """`iter(batches)` is the same batches, `next(iter(batches))` one of them; tqdm(batches, ...) yields them.
    Only for lists whose items are all alike (ops.Repeated), where any item is the first."""
    if not args or not isinstance(args[0], ops.Repeated):
        return None
    return args[0].element if func == "next" else args[0]


def _item(interp, dataset, node, key=DimVal(None)):
    if isinstance(dataset, DatasetVal):
        return dataset.item
    if isinstance(dataset, ops.Repeated) or isinstance(dataset, SeqVal) and not dataset.names:
        return tensor_lists.item_of(dataset)  # a list of records is a map-style dataset: what every item agrees on
    if not isinstance(dataset, InstanceVal) or interp.module is None:
        return None
    method = interp.module.methods.get((dataset.class_name, "__getitem__"))
    if method is None or (dataset.facts is None and not interp.module.scripted):
        return None
    if not isinstance(node, ast.Call):  # `dataset[i]`: a call of __getitem__ at the subscript
        node = ast.copy_location(ast.Call(func=node.value, args=[node.slice], keywords=[]), node)
    return interp.module.call(interp, method, node, [None, key], {}, dataset)


def _batch_dim(size_node, segment) -> Sym:
    """The batch size every leaf of a batch shares: named after the `batch_size` argument's text."""
    text = segment(size_node) if size_node is not None else None
    name = text if text and _NAME.fullmatch(text) and not text.isdigit() else "batch"
    return Sym(name, expr=None)


_NAME = re.compile(r"[A-Za-z_][\w.]*")


def collate(item, batch: Dim = None):
    """default_collate's result for items like `item` (None where it is not known), `batch` its first dim."""
    if isinstance(item, TensorVal):
        kind = ops.stacked_domain(item.domain)  # each value is an item's value: its range, a float the code made
        if item.shape is None or item.shape.variadic:
            return TensorVal(None, item.dtype, kind) if item.dtype or kind else None
        return TensorVal(Shape((batch,) + tuple(item.shape.dims)), item.dtype, kind, origin="data loader batch")
    if isinstance(item, ArrayVal):
        return TensorVal(None, item.dtype, origin="data loader batch")
    if isinstance(item, DimVal):
        return TensorVal(Shape((batch,)), "int64", origin="data loader batch")
    if isinstance(item, NumberVal):  # a Python float
        return TensorVal(Shape((batch,)), "float64", origin="data loader batch")
    if isinstance(item, Literal) and type(item.value) in (int, float):
        dtype = "int64" if type(item.value) is int else "float64"
        return TensorVal(Shape((batch,)), dtype, origin="data loader batch")
    if isinstance(item, DictVal):
        return DictVal(tuple((key, collate(value, batch)) for key, value in item.items), item.closed)
    if type(item) is SeqVal and not item.names and item.items:
        return SeqVal(tuple(collate(value, batch) for value in item.items))
    return None


def _row(t: TensorVal) -> TensorVal:
    if t.shape is None or t.shape.variadic or not t.shape.dims:
        return TensorVal(None, t.dtype)
    return TensorVal(Shape(tuple(t.shape.dims[1:])), t.dtype)
