"""`F.unfold(x, kernel_size, dilation, padding, stride)`: [N, C, H, W] -> [N, C * kh * kw, L], the
patch rows channel-major (all of channel 0's kh * kw offsets, then channel 1's). L is the number of
windows, known when every size is."""
from __future__ import annotations

from typing import Optional

from ..dims import Shape, value
from .values import DimVal, SeqVal, TensorVal

_PARAMS = ("kernel_size", "dilation", "padding", "stride")
_DEFAULTS = {"dilation": 1, "padding": 0, "stride": 1}


def unfolded(x: TensorVal, args, kwargs) -> Optional[TensorVal]:
    if x.shape is None or x.shape.variadic or len(x.shape.dims) != 4:
        return None
    given = dict(zip(_PARAMS, args))
    given.update({k: v for k, v in kwargs.items() if k in _PARAMS})
    pairs = {name: _pair(given.get(name), _DEFAULTS.get(name)) for name in _PARAMS}
    kernel = pairs["kernel_size"]
    n, c, h, w = x.shape.dims
    channels = value(c)
    rows = channels * kernel[0] * kernel[1] if channels is not None and None not in kernel else None
    windows = None
    if all(None not in pair for pair in pairs.values()) and value(h) is not None and value(w) is not None:
        counts = [(size + 2 * p - d * (k - 1) - 1) // s + 1 for size, k, d, p, s in zip(
            (value(h), value(w)), kernel, pairs["dilation"], pairs["padding"], pairs["stride"])]
        windows = counts[0] * counts[1]
    return TensorVal(Shape((n, rows, windows)), x.dtype)


def _pair(v, default):
    if v is None:
        return (default, default)
    if isinstance(v, DimVal):
        return (value(v.dim), value(v.dim))
    if isinstance(v, SeqVal) and len(v.items) == 2 and all(isinstance(i, DimVal) for i in v.items):
        return tuple(value(i.dim) for i in v.items)
    return (None, None)
