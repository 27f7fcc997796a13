"""GL018 without a gather: a softmax / log_softmax whose result a later op reads along another dim.

A softmax with a literal dim (or F.softmax's implicit one, or F.gumbel_softmax's default -1) on a tensor of
known rank marks its result
(TensorVal.normalised), and so does an `nn.Softmax(dim=...)` / `nn.LogSoftmax(dim=...)` layer (the
finding then goes to the layer's construction). Elementwise arithmetic and casts that keep the shape keep the mark; any other
op drops it. The ops below fix which dim holds the distribution, and a mismatch is reported at the
softmax, where the fix (its dim) goes:

* `F.nll_loss` / `nn.NLLLoss` (and `F.cross_entropy`, whose own log_softmax over dim 1 does not undo
  one over another dim): the classes are dim 1 (dim 0 of a 1-d input). A log_softmax over another dim
  of a 2-d input (or over dim 0 of any rank) runs silently and is wrong whatever the names.
* `probs[torch.arange(B), labels]` on a 2-d tensor normalised over dim 0: each row's label picked
  along dim 1, as GL018's gather form does (the labels must be ids/labels/actions/targets).
* `torch.multinomial` on a 2-d tensor samples each row, over the last dim; `Categorical(probs)` /
  `Categorical(logits=...)` makes one distribution per row, over the last dim.
* `logsumexp` / `argmax` / `argmin` / `max` / `min` / `sum` over a dim (an expectation
  `(probs * q).sum(1)`), when the softmax ran over the batch:
  the normalised dim is named as the batch (B, bs, bsz, batch, batch_size) and the read one is not.
  A softmax read along another, non-batch dim is common and right (an HMM's transition matrix,
  normalised over the next state and summed over the previous one; dual-softmax matching), so only
  the batch name makes the other dim certainly the intended one.
"""
from __future__ import annotations

import ast
import re
from dataclasses import dataclass
from typing import Optional

from . import torch_aliases
from ..dims import Shape, must_equal, normalize_dim
from ..rules import gl018_normalised_other_dim as rule
from . import degenerate_softmax, size_as_dim, table_mixtures
from .names import is_batch
from . import normalised_axis
from .normalised_axis import assigned_value, picks_labels
from .tree_walk import called_name
from .modules import KeepShape, Sequential
from .tensor_ops import as_int
from .values import DimVal, Literal, SeqVal, TensorVal
from .text_scan import file_test

_NORMALISERS = ("softmax", "log_softmax")
_CONSUMER_WORDS = ("nll_loss", "NLLLoss", "multinomial", "logsumexp", "Categorical")
_ROW_PICK = re.compile(r"\[\s*(?:torch\.|np\.)?a?range\(")  # probs[torch.arange(B), labels]
_READ_WORDS = ("argmax", "argmin", ".max(", ".min(", ".sum(", "cross_entropy", "CrossEntropyLoss")
# the arguments of a softmax over dim 0, -2, -3 (or F.softmax's implicit dim, an nn layer without one):
# every finding needs the normalised dim to be the batch, and dim 1 or -1 is nearly always the classes
_OFF_CLASS_DIM = re.compile(r"(?:^|[,(]|dim\s*=)\s*(?:0|-[2-4])\s*[,)]|^\s*\)")
_FUNCTIONAL_NO_DIM = re.compile(r"^[^(),=]*\)")
# elementwise methods and casts: the result is the same distribution, scaled, shifted or moved
_KEEPS = {"exp", "log", "log1p", "clamp", "clamp_min", "clip", "float", "double", "half", "bfloat16", "to",
          "detach", "clone", "contiguous", "neg", "mul", "add", "sub", "div", "masked_fill", "cpu", "cuda"}
_READERS = {"logsumexp": "reduces", "argmax": "picks its maximum along", "argmin": "picks its minimum along",
            "max": "picks its maximum along", "min": "picks its minimum along", "sum": "sums over"}


@dataclass(frozen=True)
class Mark:
    """Which softmax made a tensor: the dim it normalised and how to name it in a message."""

    axis: int
    shape: Shape  # of the normalised tensor (its rank is the mark's)
    node: ast.Call  # the softmax call, where the finding goes
    call: str
    function: str  # "softmax" or "log_softmax"
    input: str
    implicit: bool


@dataclass(frozen=True)
class NormalisingLayer(KeepShape):
    """`nn.Softmax(dim=d)` / `nn.LogSoftmax(dim=d)`: its output carries the mark, found at the layer's
    construction (where the fix goes)."""

    written: Optional[int] = None  # None: no dim given, torch picks one from the input's rank
    node: Optional[ast.Call] = None
    call: str = ""

    def apply(self, x) -> Optional[TensorVal]:
        out = KeepShape.apply(self, x)
        shape = x.shape if isinstance(x, TensorVal) else None
        if out is None or shape is None or shape.variadic or len(shape.dims) < 2:
            return out
        rank = len(shape.dims)
        axis = normalize_dim((0 if rank == 3 else 1) if self.written is None else self.written, rank)
        if axis is None:
            return out
        function = "log_softmax" if self.kind == "LogSoftmax" else "softmax"
        return out.with_(normalised=Mark(axis, shape, self.node, self.call, function, "", self.written is None))


def layer(node: ast.Call, func: str, built, args, kwargs, segment):
    """nn.Softmax / nn.LogSoftmax with a literal dim (or none) as a layer that marks its output."""
    if func not in ("Softmax", "LogSoftmax") or not isinstance(built, KeepShape):
        return built
    given = kwargs.get("dim", args[0] if args else None)
    written = as_int(given) if isinstance(given, DimVal) else None
    if written is None and (args or "dim" in kwargs) and not (isinstance(given, Literal) and given.value is None):
        return built  # a dim that is not a literal
    return NormalisingLayer(func, written, node, segment(node))


@file_test
def spelled_in(text: str) -> bool:
    """A file that can pair a softmax over a dim other than the classes' with an op that reads its
    distribution dim, or hold a softmax wrong by its own dim (softmaxes are in most model files: only
    these few are parsed for this)."""
    return block_filter(text) is not None


@file_test
def block_filter(text: str):
    """The test that picks the blocks to parse in a file spelled_in, or None for another file."""
    if "oftmax" not in text:  # softmax, nn.Softmax, nn.LogSoftmax
        return None
    off_class = _softmax_off_classes(text)
    read = off_class and (any(word in text for word in _CONSUMER_WORDS + _READ_WORDS) or
                          ("range(" in text and _ROW_PICK.search(torch_aliases.expanded(text)) is not None))
    degenerate = degenerate_softmax.block_filter(text, off_class) if degenerate_softmax.spelled_in(text, off_class) \
        else None
    if size_as_dim.spelled_in(text):  # a softmax given a size as its dim (GL002)
        degenerate = _either(degenerate, size_as_dim.spelled_in)
    if read and degenerate:
        return lambda chunk: block_spelled(chunk) or degenerate(chunk)
    return block_spelled if read else degenerate


def _either(first, second):
    return second if first is None else (lambda chunk: first(chunk) or second(chunk))


def _softmax_off_classes(text: str) -> bool:
    """A softmax call over a non-class dim, in code (not a docstring's `>>>` example or a comment).
    str.find from call to call: a regex over the whole text backtracks on every `softmax(`."""
    start = text.find("oftmax(")
    while start != -1:
        arguments = text[start + 7:text.find("\n", start) if "\n" in text[start:start + 300] else start + 300]
        line = text[text.rfind("\n", 0, start) + 1:start].lstrip()
        functional = line.endswith(("F.s", "F.log_s", "functional.s", "functional.log_s"))
        if not line.startswith((">>>", "...", "#")) and (
                _OFF_CLASS_DIM.search(arguments) is not None or (functional and _FUNCTIONAL_NO_DIM.match(arguments))):
            return True
        start = text.find("oftmax(", start + 7)
    return False


def block_spelled(chunk: str) -> bool:
    """A block of such a file that holds either end: the softmax over a non-class dim, or an op reading it."""
    return any(word in chunk for word in _CONSUMER_WORDS + _READ_WORDS) or \
        ("oftmax" in chunk and _softmax_off_classes(chunk)) or \
        ("range(" in chunk and _ROW_PICK.search(torch_aliases.expanded(chunk)) is not None)


def after(interp, node: ast.Call, name: str, owner, args, kwargs, result, module: Optional[str] = None):
    """`<owner>.<name>(*args)`, or `<module>.<name>(owner, *args)` with module given, gave result: mark a
    softmax, check a reader of a marked tensor, keep the mark through elementwise ops."""
    if not isinstance(owner, TensorVal):
        return result
    if name in size_as_dim.FUNCTIONS:  # GL002: a size given as the dim
        size_as_dim.check(interp, node, name, owner, args, kwargs, module is None)
    if name in _NORMALISERS or (name == "gumbel_softmax" and module == "torch.nn.functional"):
        return _marked(interp, node, name, owner, args, kwargs, result, module)
    if name == "matmul" and args and len(node.args) == len(args) + (module is not None):
        left = node.args[0] if module is not None else node.func.value
        table_mixtures.check_matmul(interp, node, left, owner, node.args[-1], args[0])  # probs.matmul(emb.weight)
    mark = _current(owner)
    if mark is None:
        return result
    if name in _READERS:
        _check_reader(interp, node, name, mark, args, kwargs)
    elif name == "multinomial" and len(mark.shape.dims) == 2 and mark.axis == 0:
        _flag(interp, mark, node, 1, "samples each row over dim 1")
    if name in _KEEPS and isinstance(result, TensorVal) and result.shape == owner.shape:
        return result.with_(normalised=mark)
    return result


def through_arith(left, right, result):
    """`logp + other`, `probs * w`: elementwise, so a result of the marked operand's shape keeps its mark."""
    if not isinstance(result, TensorVal) or result.shape is None:
        return result
    for operand in (left, right):
        if isinstance(operand, TensorVal) and _current(operand) is not None and operand.shape == result.shape:
            return result.with_(normalised=operand.normalised)
    return result


def check_pick(interp, node: ast.Subscript, owner: TensorVal, key) -> None:
    """`probs[torch.arange(B), labels]` / `logp[range(n), y]`: each row's label picked along dim 1, the
    per-row pick that gather spells `gather(1, labels.unsqueeze(1))`."""
    mark = owner.normalised
    if mark is None or not isinstance(node.ctx, ast.Load) or not isinstance(node.slice, ast.Tuple) \
            or len(node.slice.elts) != 2 or _current(owner) is None or len(mark.shape.dims) != 2 or mark.axis != 0:
        return
    rows, labels = node.slice.elts
    picked = key.items[1] if isinstance(key, SeqVal) and len(key.items) == 2 else None
    if not _counts_rows(rows) or not isinstance(picked, TensorVal) or picked.domain is None \
            or not picked.domain.category:
        return  # only class labels say that dim 1 holds the classes
    _flag(interp, mark, node, 1, f"picks each row's {picked.domain.origin} along dim 1")


def check_gather(interp, node: ast.Call, site, bound, values) -> None:
    """`probs.gather(1, labels)` on a 2-d tensor that an nn.Softmax(dim=0) layer or a helper's softmax
    normalised over dim 0: each row's label read from values normalised over the rows."""
    owner = values["input"]
    mark = _current(owner) if isinstance(owner, TensorVal) else None
    if mark is None or len(mark.shape.dims) != 2 or mark.axis != 0 or normalize_dim(site.dim, 2) != 1:
        return
    over_batch = is_batch(mark.shape.dims[0]) and not is_batch(mark.shape.dims[1])  # as normalised_axis.check
    if not (picks_labels(site, bound) or over_batch and normalised_axis.gathers_known_dim(site)):
        return
    _flag(interp, mark, node, 1, "picks each row's label along dim 1")


def _counts_rows(node) -> bool:
    """torch.arange(n) / range(n) / np.arange(n) as the row index of a per-row pick."""
    return called_name(node) in ("arange", "range")


def check_loss(interp, node: ast.Call, module: str, func: str, args, kwargs) -> None:
    """F.nll_loss / F.cross_entropy(input, target): the classes are dim 1 of input (dim 0 when it is 1-d);
    cross_entropy's own log_softmax over dim 1 does not undo one taken over another dim."""
    if func == "Categorical" and module.startswith("torch.distributions"):
        _check_categorical(interp, node, args, kwargs)
        return
    if func not in ("nll_loss", "cross_entropy") or module != "torch.nn.functional":
        return
    given = kwargs.get("input", args[0] if args else None)
    mark = _current(given) if isinstance(given, TensorVal) else None
    if mark is None:
        return
    rank = len(mark.shape.dims)
    classes = 1 if rank >= 2 else 0
    # on 3-d and more, a log_softmax over the last dim makes nll_loss raise on the target's shape
    # unless sizes happen to agree: only the batch dim (0) is certainly silent there
    if mark.axis == classes or not (rank == 2 or mark.axis == 0) or _contrastive(interp, node, mark, kwargs):
        return
    _flag(interp, mark, node, classes, f"reads dim {classes} as the classes")


def _check_categorical(interp, node: ast.Call, args, kwargs) -> None:
    """Categorical(probs) / Categorical(logits=...) normalises over the last dim: one distribution per row."""
    given = kwargs.get("probs", kwargs.get("logits", args[0] if args else None))
    mark = _current(given) if isinstance(given, TensorVal) else None
    if mark is None:
        return
    dims = mark.shape.dims
    last = len(dims) - 1
    if mark.axis == last or not (len(dims) == 2 or (is_batch(dims[mark.axis]) and not is_batch(dims[last]))):
        return
    _flag(interp, mark, node, last, f"takes dim {last} as each distribution's categories")


def _contrastive(interp, node: ast.Call, mark: Mark, kwargs) -> bool:
    """[B, B] similarities with arange targets: normalising over dim 0 scores the other direction
    of a contrastive (CLIP-style) loss, on purpose."""
    dims = mark.shape.dims
    if len(dims) == 2 and must_equal(dims[0], dims[1]):
        return True
    target = next((k.value for k in node.keywords if k.arg == "target"), node.args[1] if len(node.args) > 1 else None)
    made = assigned_value(target, interp.function, node.lineno) if target is not None else None
    return called_name(made) == "arange"


def _marked(interp, node, name, owner: TensorVal, args, kwargs, result, module: Optional[str]):
    shape = owner.shape
    if not isinstance(result, TensorVal) or shape is None or shape.variadic or len(shape.dims) < 2:
        return result
    rank = len(shape.dims)
    if name == "gumbel_softmax":  # F.gumbel_softmax(logits, tau=1, hard=False, eps=1e-10, dim=-1)
        given = kwargs.get("dim", args[3] if len(args) > 3 else DimVal(-1))
    else:
        given = kwargs.get("dim", args[0] if args else None)
    implicit = given is None and "dim" not in kwargs and not args
    if implicit and module != "torch.nn.functional":
        return result  # x.softmax() and torch.softmax(x) raise without a dim
    written = (0 if rank == 3 else 1) if implicit else (as_int(given) if isinstance(given, DimVal) else None)
    axis = normalize_dim(written, rank) if written is not None else None
    if axis is None:
        return result
    segment = interp.source.segment
    source = node.func.value if module is None and isinstance(node.func, ast.Attribute) else \
        (node.args[0] if node.args else node)
    mark = Mark(axis, shape, node, segment(node), name, segment(source), implicit)
    degenerate_softmax.check(interp, mark)  # over a size-1 dim or a flattened batch: wrong whatever reads it
    return result.with_(normalised=mark)


def layer_output(interp, layer, out):
    """`self.softmax(x)` with `self.softmax = nn.Softmax(dim=...)`, or an nn.Sequential ending in one: its
    own dim checked like F.softmax's."""
    mark = out.normalised if isinstance(out, TensorVal) else None
    if mark is None or mark.node is None:
        return out
    layers = layer.layers if isinstance(layer, Sequential) else (layer,)
    if any(isinstance(one, NormalisingLayer) and one.node is mark.node for one in layers):
        degenerate_softmax.check(interp, mark)
    return out


def _current(t: TensorVal) -> Optional[Mark]:
    """The mark, while the tensor still has the rank it was normalised at."""
    mark = t.normalised
    if mark is None or t.shape is None or t.shape.variadic or len(t.shape.dims) != len(mark.shape.dims):
        return None
    return mark


def _check_reader(interp, node, name: str, mark: Mark, args, kwargs) -> None:
    """logsumexp/argmax/max over another dim of a tensor normalised over its batch dim."""
    dims = mark.shape.dims
    given = kwargs.get("dim", args[0] if args else None)
    read = normalize_dim(as_int(given), len(dims)) if isinstance(given, DimVal) and as_int(given) is not None else None
    if read is None or read == mark.axis:
        return
    if not is_batch(dims[mark.axis]) or is_batch(dims[read]) or must_equal(dims[read], dims[mark.axis]):
        return  # [B, B] similarity scores are normalised over either batch dim on purpose
    _flag(interp, mark, node, read, f"{_READERS[name]} dim {read}")


def _flag(interp, mark: Mark, reader: ast.Call, read: int, how: str) -> None:
    dims = mark.shape.dims
    batch = f" (`{dims[mark.axis]}`, the batch)" if is_batch(dims[mark.axis]) else ""
    interp.flag(mark.node, rule.check_read_elsewhere(
        mark.call, mark.input, mark.shape, mark.function, mark.axis, batch, mark.implicit,
        interp.source.segment(reader), reader.lineno, read, how), None)
