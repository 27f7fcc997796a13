"""nn layers and instances of the module's own nn.Module classes, as abstract values.

`nn.Linear(i, o)`, `nn.Embedding(V, D)`, `nn.Sequential(...)` and shape-keeping activations give a
layer whose call maps a known input shape to its output; `nn.Parameter(t)` is `t`. `QNet(4, 2)` with
`QNet` defined in the file is an instance that remembers the constructor arguments bound to
`__init__`'s parameters, so `q_net(obs)` runs `forward` with the attributes that `__init__` built.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Optional, Tuple

from ..dims import Shape, value
from . import dtype_certainty, signs, tensor_ops
from .values import DimVal, LayerVal, Literal, SeqVal, TensorVal

NN_MODULES = ("torch.nn", "torch.nn.modules", "nn")

# layers whose output has the input's shape (and a float input's dtype)
_SHAPE_KEEPING = {
    "ReLU", "ReLU6", "GELU", "SiLU", "Tanh", "Sigmoid", "LeakyReLU", "ELU", "SELU", "Mish", "Softplus",
    "Hardswish", "Hardtanh", "Dropout", "Identity", "LayerNorm", "RMSNorm", "Softmax", "LogSoftmax",
    "BatchNorm1d", "BatchNorm2d", "BatchNorm3d", "GroupNorm", "InstanceNorm1d", "InstanceNorm2d", "InstanceNorm3d",
    "Dropout1d", "Dropout2d", "Dropout3d", "AlphaDropout", "PReLU", "CELU", "Hardsigmoid", "LogSigmoid", "Softsign",
    "Softmin", "Tanhshrink", "TransformerEncoderLayer", "TransformerEncoder",  # (x, mask=...): x's shape
}


_POOLS = {f"{kind}Pool{n}d" for kind in ("Max", "Avg", "AdaptiveAvg", "AdaptiveMax") for n in (1, 2, 3)}


@dataclass(frozen=True)
class KeepShape:
    """An activation, dropout or norm layer: output shape = input shape."""

    kind: str

    def apply(self, x) -> Optional[TensorVal]:
        return signs.after_op(self.kind, x, TensorVal(x.shape, x.dtype)) if isinstance(x, TensorVal) else None


@dataclass(frozen=True)
class Flatten:
    """nn.Flatten(start_dim=1, end_dim=-1): the dims from start to end become one."""

    start: int = 1
    end: int = -1

    def apply(self, x) -> Optional[TensorVal]:
        if not isinstance(x, TensorVal):
            return None
        return tensor_ops.apply_method("flatten", x, [DimVal(self.start), DimVal(self.end)], {}, "")


@dataclass(frozen=True)
class Sequential:
    layers: Tuple[object, ...]

    def apply(self, x) -> Optional[TensorVal]:
        for layer in self.layers:
            x = layer.apply(x)
            if x is None:
                return None
        return x


@dataclass(frozen=True)
class Recurrent:
    """nn.GRU / nn.LSTM / nn.RNN: (output, state) with output = input's dims but the last, which
    becomes hidden_size x directions, batch-first or not; the state h_n is [num_layers x directions,
    batch, hidden] whatever batch_first says ([num_layers x directions, hidden] unbatched), and LSTM's
    is the pair (h_n, c_n)."""

    width: object  # hidden_size * num_directions
    hidden: object = None  # hidden_size, when the state's shape is known
    states: object = None  # num_layers * num_directions
    batch_first: Optional[bool] = None  # None: not known
    pair: bool = False  # LSTM: (h_n, c_n)

    def apply(self, x):
        if not isinstance(x, TensorVal) or x.shape is None or x.shape.variadic or len(x.shape.dims) not in (2, 3):
            return SeqVal((signs.made(TensorVal(None, x.dtype if isinstance(x, TensorVal) else None)), None))
        return SeqVal((signs.made(TensorVal(Shape(x.shape.dims[:-1] + (self.width,)), x.dtype)), self._state(x)))

    def _state(self, x: TensorVal):
        dims = x.shape.dims
        if self.hidden is None or self.states is None or (len(dims) == 3 and self.batch_first is None):
            return None
        batch = (dims[0] if self.batch_first else dims[1],) if len(dims) == 3 else ()
        h_n = TensorVal(Shape((self.states,) + batch + (self.hidden,)), x.dtype)
        return SeqVal((h_n, h_n)) if self.pair else h_n


@dataclass(frozen=True)
class Cell:
    """nn.GRUCell / nn.RNNCell / nn.LSTMCell: one step, [B, input] -> [B, hidden] ((h, c) for LSTM)."""

    hidden: object
    pair: bool  # LSTMCell returns (h, c)

    def apply(self, x):
        if not isinstance(x, TensorVal) or x.shape is None or x.shape.variadic or len(x.shape.dims) not in (1, 2):
            out = TensorVal(None, x.dtype if isinstance(x, TensorVal) else None)
        else:
            out = TensorVal(Shape(x.shape.dims[:-1] + (self.hidden,)), x.dtype)
        out = signs.made(out)
        return SeqVal((out, out)) if self.pair else out


@dataclass(frozen=True)
class Conv:
    """nn.Conv1d/2d/3d: channels become out_channels, each spatial size follows kernel, stride, padding."""

    out_channels: object
    spatial: int  # 1, 2 or 3
    kernel: tuple
    stride: tuple
    padding: tuple
    dilation: tuple

    def apply(self, x):
        s = x.shape if isinstance(x, TensorVal) else None
        if s is None or s.variadic or len(s.dims) not in (self.spatial + 1, self.spatial + 2):
            return signs.made(TensorVal(None, x.dtype if isinstance(x, TensorVal) else None))
        lead, sizes = s.dims[:-self.spatial - 1], s.dims[-self.spatial:]
        out = tuple(_conv_size(n, k, st, p, d) for n, k, st, p, d in
                    zip(sizes, self.kernel, self.stride, self.padding, self.dilation))
        return signs.made(TensorVal(Shape(lead + (self.out_channels,) + out), x.dtype))


@dataclass(frozen=True)
class Pool:
    """nn.MaxPool/AvgPool{1,2,3}d (kernel, stride, padding) and nn.Adaptive{Avg,Max}Pool{1,2,3}d (output
    sizes): the channels stay, each spatial size follows the window or becomes the output size."""

    spatial: int
    kernel: tuple = ()
    stride: tuple = ()
    padding: tuple = ()
    output: tuple = ()  # adaptive pools: the output sizes (None: that dim keeps its size)

    def apply(self, x):
        s = x.shape if isinstance(x, TensorVal) else None
        if s is None or s.variadic or len(s.dims) not in (self.spatial + 1, self.spatial + 2):
            return signs.kept(x, TensorVal(None, x.dtype if isinstance(x, TensorVal) else None))
        lead, sizes = s.dims[:-self.spatial], s.dims[-self.spatial:]
        if self.output:
            out = tuple(n if o is None else o for n, o in zip(sizes, self.output))
        else:
            out = tuple(_conv_size(n, k, st, p, 1) for n, k, st, p in zip(sizes, self.kernel, self.stride, self.padding))
        return signs.kept(x, TensorVal(Shape(lead + out), x.dtype))  # a max or a mean of a window: its sign


def _pool(func: str, args: list, kwargs: dict) -> Optional[Pool]:
    spatial = int(func[-2])
    if func.startswith("Adaptive"):
        size = args[0] if args else kwargs.get("output_size")
        if isinstance(size, DimVal) and isinstance(size.dim, int):
            return Pool(spatial, output=(size.dim,) * spatial)
        if isinstance(size, SeqVal) and len(size.items) == spatial and all(
                isinstance(v, DimVal) and isinstance(v.dim, int) or (isinstance(v, Literal) and v.value is None)
                for v in size.items):
            return Pool(spatial, output=tuple(v.dim if isinstance(v, DimVal) else None for v in size.items))
        return None
    names = ("kernel_size", "stride", "padding")
    given = dict(zip(names, args))
    given.update({k: v for k, v in kwargs.items() if k in names})
    if "kernel_size" not in given or any(k in kwargs for k in ("dilation", "ceil_mode", "return_indices")):
        return None
    kernel = _per_dim(given["kernel_size"], spatial, None)
    stride = given.get("stride")
    stride = kernel if stride is None or (isinstance(stride, Literal) and stride.value is None) else _per_dim(stride, spatial, 1)
    return Pool(spatial, kernel, stride, _per_dim(given.get("padding"), spatial, 0))


def _conv_size(n, kernel, stride, padding, dilation):
    if padding == "same" and stride == 1:
        return n
    if stride == 1 and all(isinstance(v, int) for v in (kernel, padding, dilation)) \
            and 2 * padding == dilation * (kernel - 1):
        return n  # "same" padding (padding=kernel_size // 2 for an odd kernel) keeps the size, known or not
    numbers = [value(n), kernel, stride, padding, dilation]
    if any(not isinstance(v, int) for v in numbers):
        return None
    size, kernel, stride, padding, dilation = numbers
    return (size + 2 * padding - dilation * (kernel - 1) - 1) // stride + 1


def _per_dim(given, count: int, default):
    """A conv argument as one entry per spatial dim: 3 -> (3, 3); (3, 1) stays; unknown -> None each. A name
    whose value is known (`p = cfg["patch_size"]`) counts as its value."""
    if given is None:
        return (default,) * count
    if isinstance(given, DimVal):
        return (value(given.dim),) * count
    if isinstance(given, Literal) and given.value == "same":
        return ("same",) * count
    if isinstance(given, SeqVal) and len(given.items) == count:
        return tuple(value(v.dim) if isinstance(v, DimVal) else None for v in given.items)
    return (None,) * count


@dataclass(frozen=True)
class LayerList:
    """nn.ModuleList of one kind of layer (`ModuleList(Linear(d, d) for _ in range(n))`): iterating or
    indexing it gives that layer. Calling the list itself raises in torch, so it is not a layer."""

    element: object


@dataclass(frozen=True)
class InstanceVal:
    """An instance of a class of this file; `facts` are __init__'s bound arguments, sorted by name."""

    class_name: str
    facts: Tuple[tuple, ...] = ()


def takes_state(layer) -> bool:
    """Recurrent layers take a state after the input (`cell(x, h)`, `gru(x, h0)`): the input decides."""
    return isinstance(layer, (Recurrent, Cell))


def is_layer(value) -> bool:
    return isinstance(value, (LayerVal, KeepShape, Sequential, Recurrent, Cell, Conv, Flatten, Pool))


def build(func: str, args: list, kwargs: dict):
    """The layer `nn.<func>(*args, **kwargs)` builds, or None when its effect on shapes is not known."""
    if func in ("Embedding", "EmbeddingBag", "Linear") and len(args) + len(kwargs) >= 2:
        table = func != "Linear"
        names = ("num_embeddings", "embedding_dim") if table else ("in_features", "out_features")
        first = args[0] if args else kwargs.get(names[0])
        second = args[1] if len(args) > 1 else kwargs.get(names[1])
        if table or all(v is None or isinstance(v, DimVal) for v in (first, second)):
            # Linear(d_model, n_actions) with unknown sizes still keeps the input's rank; an Embedding sized
            # from a config the analysis cannot read is still a lookup table, whose ids' dtype is checked
            return LayerVal(func, *(v.dim if isinstance(v, DimVal) else None for v in (first, second)))
        return None
    if func in ("GRU", "LSTM", "RNN"):
        hidden = args[1] if len(args) > 1 else kwargs.get("hidden_size")
        both = kwargs.get("bidirectional", Literal(False))
        if not isinstance(hidden, DimVal) or hidden.dim is None or len(args) > 6 or "proj_size" in kwargs \
                or not (isinstance(both, Literal) and isinstance(both.value, bool)):
            return None
        directions = 2 if both.value else 1
        if directions == 2 and not isinstance(hidden.dim, int):
            return None  # hidden x 2 of a named size: no dim states it
        layers = args[2] if len(args) > 2 else kwargs.get("num_layers", DimVal(1))
        first = args[4] if len(args) > 4 else kwargs.get("batch_first", Literal(False))
        count = layers.dim if isinstance(layers, DimVal) else None
        states = count * directions if isinstance(count, int) else (count if directions == 1 else None)
        batch_first = first.value if isinstance(first, Literal) and isinstance(first.value, bool) else None
        width = hidden.dim * directions if directions == 2 else hidden.dim  # a named size stays the name
        return Recurrent(width, hidden.dim, states, batch_first, func == "LSTM")
    if func in ("GRUCell", "RNNCell", "LSTMCell"):
        hidden = args[1] if len(args) > 1 else kwargs.get("hidden_size")
        return Cell(hidden.dim if isinstance(hidden, DimVal) else None, func == "LSTMCell")
    if func in ("Conv1d", "Conv2d", "Conv3d"):
        return _conv(int(func[4]), args, kwargs)
    if func in _SHAPE_KEEPING:
        return KeepShape(func)
    if func in _POOLS:
        return _pool(func, args, kwargs)
    if func == "Flatten":
        ends = [args[0] if args else kwargs.get("start_dim", DimVal(1)), args[1] if len(args) > 1 else kwargs.get("end_dim", DimVal(-1))]
        return Flatten(*(e.dim for e in ends)) if all(isinstance(e, DimVal) and isinstance(e.dim, int) for e in ends) else None
    if func == "Sequential" and args and all(is_layer(a) for a in args):
        return Sequential(tuple(args))
    if func == "ModuleList" and len(args) == 1 and not kwargs:
        return _layer_list(args[0])
    if func == "Parameter" and args and isinstance(args[0], TensorVal):
        return dtype_certainty.uncertain(args[0])  # a module's .half() converts it
    return None


def linear(x, weight) -> Optional[TensorVal]:
    """F.linear(x, weight [out, in]): x's dims but the last, which becomes out."""
    if not isinstance(x, TensorVal) or not isinstance(weight, TensorVal):
        return None
    w = weight.shape
    if x.shape is None or w is None or w.variadic or len(w.dims) != 2 or not x.shape.dims:
        return signs.made(TensorVal(None, x.dtype))
    return signs.made(TensorVal(Shape(x.shape.dims[:-1] + (w.dims[0],), x.shape.variadic), x.dtype))


def _layer_list(layers) -> Optional[LayerList]:
    """A ModuleList from a comprehension of layers, or from a literal list of one and the same layer."""
    if isinstance(layers, tensor_ops.Repeated) and (is_layer(layers.element) or isinstance(layers.element, InstanceVal)):
        return LayerList(layers.element)
    if isinstance(layers, SeqVal) and layers.items and all(item == layers.items[0] for item in layers.items) \
            and (is_layer(layers.items[0]) or isinstance(layers.items[0], InstanceVal)):
        return LayerList(layers.items[0])
    return None


def _conv(spatial: int, args: list, kwargs: dict) -> Optional[Conv]:
    names = ("in_channels", "out_channels", "kernel_size", "stride", "padding", "dilation")
    given = dict(zip(names, args))
    given.update({k: v for k, v in kwargs.items() if k in names})
    out, kernel = given.get("out_channels"), given.get("kernel_size")
    if kernel is None or "groups" in kwargs and not isinstance(kwargs["groups"], DimVal):
        return None
    return Conv(out.dim if isinstance(out, DimVal) else None, spatial, _per_dim(kernel, spatial, None),
                _per_dim(given.get("stride"), spatial, 1), _per_dim(given.get("padding"), spatial, 0),
                _per_dim(given.get("dilation"), spatial, 1))
