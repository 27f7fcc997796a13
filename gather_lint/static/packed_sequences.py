"""torch.nn.utils.rnn's packed sequences, as far as the shapes go.

`pack_padded_sequence(x, lengths, batch_first)` keeps of x only the batch size and the feature width (the
time steps become one flat run); a recurrent layer called on it gives a packed output of its own width and
the usual final state [num_layers x directions, batch, hidden]; `pad_packed_sequence(out, batch_first)`
gives back [batch, T', width] (or [T', batch, width]), T' the longest length, and the lengths [batch].
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Optional

from ..dims import Dim, Shape
from .values import Literal, SeqVal, TensorVal


@dataclass(frozen=True)
class PackedVal:
    """A PackedSequence of `batch` sequences of `width` features each."""

    batch: Dim
    width: Dim
    dtype: Optional[str] = None

    def as_batch_first(self) -> TensorVal:
        """A stand-in input for a recurrent layer: [batch, time, width], the time unknown."""
        return TensorVal(Shape((self.batch, None, self.width)), self.dtype)


def _flag(args: list, kwargs: dict, position: int, name: str, default: bool) -> Optional[bool]:
    given = args[position] if len(args) > position else kwargs.get(name, Literal(default))
    return given.value if isinstance(given, Literal) and isinstance(given.value, bool) else None


def pack(args: list, kwargs: dict) -> Optional[PackedVal]:
    """pack_padded_sequence(input, lengths, batch_first=False, enforce_sorted=True)."""
    x = args[0] if args else kwargs.get("input")
    first = _flag(args, kwargs, 2, "batch_first", False)
    if not isinstance(x, TensorVal) or x.shape is None or x.shape.variadic or len(x.shape.dims) < 3 or first is None:
        return None
    dims = x.shape.dims
    return PackedVal(dims[0] if first else dims[1], dims[-1], x.dtype)


def unpack(args: list, kwargs: dict):
    """pad_packed_sequence(sequence, batch_first=False, ...): (padded, lengths)."""
    packed = args[0] if args else kwargs.get("sequence")
    first = _flag(args, kwargs, 1, "batch_first", False)
    if not isinstance(packed, PackedVal) or first is None:
        return None
    dims = (packed.batch, None, packed.width) if first else (None, packed.batch, packed.width)
    return SeqVal((TensorVal(Shape(dims), packed.dtype), TensorVal(Shape((packed.batch,)), "int64")))


def through_layer(layer, packed: PackedVal):
    """A recurrent layer on a packed input: (packed output, final state), the state laid out by its batch."""
    result = layer.apply(packed.as_batch_first() if layer.batch_first else TensorVal(
        Shape((None, packed.batch, packed.width)), packed.dtype))
    if not isinstance(result, SeqVal) or len(result.items) != 2:
        return None
    out = result.items[0]
    width = out.shape.dims[-1] if isinstance(out, TensorVal) and out.shape is not None else None
    return SeqVal((PackedVal(packed.batch, width, packed.dtype), result.items[1]))


def padded(args: list, kwargs: dict) -> Optional[TensorVal]:
    """`pad_sequence(seqs, batch_first)`: seqs of [L_i, *rest] stacked into [batch, L, *rest] (or [L, batch,
    *rest]), L the longest length; `batch` is the list's length when it is a tracked one. Each sequence's dtype."""
    from .tensor_ops import Repeated

    seqs = args[0] if args else kwargs.get("sequences")
    if isinstance(seqs, Repeated) and isinstance(seqs.element, TensorVal):
        pieces, batch = [seqs.element], None
    elif type(seqs) is SeqVal and not seqs.names and seqs.items and all(isinstance(i, TensorVal) for i in seqs.items):
        pieces, batch = list(seqs.items), len(seqs.items)
    else:
        return None
    shapes = {p.shape for p in pieces}
    dtypes = {p.dtype for p in pieces}
    first = _flag(args, kwargs, 1, "batch_first", False)
    shape = pieces[0].shape
    if len(shapes) != 1 and not all(p.shape is not None and not p.shape.variadic and p.shape.dims for p in pieces):
        return None
    if shape is None or shape.variadic or not shape.dims or first is None:
        return TensorVal(None, dtypes.pop() if len(dtypes) == 1 else None)
    rest = shape.dims[1:]
    if any(p.shape.dims[1:] != rest for p in pieces):
        return None  # torch raises where the trailing sizes differ
    length = shape.dims[0] if len(shapes) == 1 else None
    dims = (batch, length) + rest if first else (length, batch) + rest
    return TensorVal(Shape(dims), dtypes.pop() if len(dtypes) == 1 else None, origin="pad_sequence")
