"""Class ids against a class count: the targets of `F.cross_entropy` / `F.nll_loss` (and their nn
modules), and the labels of `F.one_hot(labels, num_classes)`.

The loss reads the target ids along dim 1 of the input (the only dim of an unbatched one): a target
of C or more, for C classes, raises 'IndexError: Target 5 is out of bounds.' (a device-side assert on
CUDA). Reported when the targets were made for more classes than the input has (`randint(0, K)`,
an id table, a constant fill) or are written out in the code with one past the classes (GL011).
Probabilities as targets (a float tensor of the input's shape) are not class ids and are skipped, and
so are ids equal to the call's `ignore_index` (torch skips those targets): with an `ignore_index` of
unknown value nothing is reported.
"""
from __future__ import annotations

from ..contract import ERROR, Violation
from ..rules import gl008_index_dtype as index_dtype
from ..rules.gl011_index_out_of_range import padding_source
from ..dims import dim_text, must_equal, must_exceed, value
from . import declared_index_dtypes, exact_values, one_class_loss
from .tensor_ops import as_int
from . import script_drivers, text_scan
from .text_scan import file_test
from .values import DimVal, TensorVal

_DEFAULT_IGNORE_INDEX = -100  # the losses skip targets of this value unless told another
_IGNORE_INDEX_AT = 4  # cross_entropy / nll_loss(input, target, weight, size_average, ignore_index, ...)
_NOT_GIVEN = object()

FUNCTIONS = ("cross_entropy", "nll_loss")
_FLOATS = ("float16", "bfloat16", "float32", "float64")


def check(interp, func: str, node, args: list, kwargs: dict) -> None:
    if func not in FUNCTIONS:
        return
    keywords = {k.arg: k.value for k in node.keywords if k.arg}
    logits = kwargs.get("input", args[0] if args else None)
    target = kwargs.get("target", args[1] if len(args) > 1 else None)
    target_node = keywords.get("target", node.args[1] if len(node.args) > 1 else None)
    known = isinstance(logits, TensorVal) and logits.shape is not None and not logits.shape.variadic
    rank = len(logits.shape.dims) if known else None
    if _refused_dtype(interp, node, f"F.{func}()", target_node, target, rank):
        return
    if not known or not logits.shape.dims or target_node is None:
        return
    dims = logits.shape.dims
    text = interp.source.segment(target_node)
    classes = dims[1] if len(dims) >= 2 else dims[0]
    if classes is None or (isinstance(target, TensorVal) and target.dtype in _FLOATS):
        return
    if one_class_loss.check(interp, node, dims, f"F.{func}()", text):
        return
    ignored = _ignore_index(node, args, kwargs)
    if ignored is None:
        return  # some target value is skipped, and which one is not known
    domain = target.domain if isinstance(target, TensorVal) else None
    skipped = _DEFAULT_IGNORE_INDEX if ignored is _NOT_GIVEN else ignored
    if domain is not None and domain.sentinel is not None and domain.sentinel < 0 and domain.sentinel != skipped:
        interp.flag(node, _padding_message(text, domain, skipped, f"F.{func}()"), None)
        return
    if ignored is _NOT_GIVEN and _made_for_more(domain, classes) and not any(must_equal(d, domain.size) for d in dims):
        interp.flag(node, _message(text, domain.origin, classes, f"F.{func}()"), None)
        return
    known = exact_values.largest_described(target)
    if known is not None and value(classes) is not None and known[0] >= value(classes) and known[0] != ignored:
        interp.flag(node, _message(text, known[1], classes, f"F.{func}()"), None)


def _ignore_index(node, args: list, kwargs: dict):
    """The call's ignore_index: _NOT_GIVEN, its int value, or None when given with an unknown value."""
    given = any(k.arg == "ignore_index" for k in node.keywords) or len(node.args) > _IGNORE_INDEX_AT
    if not given:
        return _NOT_GIVEN
    return as_int(kwargs.get("ignore_index", args[_IGNORE_INDEX_AT] if len(args) > _IGNORE_INDEX_AT else None))


_MODULE_IGNORE_AT = 2  # nn.CrossEntropyLoss / nn.NLLLoss(weight, size_average, ignore_index, ...)


def ignores_targets(func: str, node) -> bool:
    """`nn.CrossEntropyLoss(ignore_index=...)`: the module's calls skip some targets, which ones its calls do
    not say, so it is not treated as the functional form."""
    return func in ("CrossEntropyLoss", "NLLLoss") and (
        any(k.arg == "ignore_index" for k in node.keywords) or len(node.args) > _MODULE_IGNORE_AT)


_CLASS_ID_CALLS = ("one_hot(", "cross_entropy(", "nll_loss(", "CrossEntropyLoss(", "NLLLoss(")
_DTYPE_CUES = (".int()", "int32", ".short()", "int16", "int8", ".char()", ".float()", ".bool()", ".half()", ".double()",
               "as_tensor(", "tensor([")


@file_test
def spelled_in(text: str) -> bool:
    """A class-id op beside a cast or a dtype that it may refuse: the parts worth parsing for GL008 on
    one_hot's ids and the losses' targets. In a script (small, its sizes and casts made in place) anywhere in
    the part; in a library, where these ops sit in large model classes beside unrelated casts, only on the
    line of the call (`F.cross_entropy(logits, labels.float())`)."""
    if not any(call in text for call in _CLASS_ID_CALLS):
        return False
    if script_drivers.is_script(text_scan.current_file() or text):
        return any(cue in text for cue in _DTYPE_CUES)
    for call in _CLASS_ID_CALLS:
        for at in text_scan.positions(text, call):
            start, end = text_scan.line_span(text, at)
            if any(cue in text[start:end] for cue in _DTYPE_CUES):
                return True
    return False


def _refused_dtype(interp, node, what: str, ids_node, ids, input_rank=None) -> bool:
    """GL008: class ids of a dtype `what` refuses: one_hot takes int64 only; the losses int64, and uint8 for an
    input of at most 2 dims (`input_rank`; torch's 2-d kernel). A float counts when the code makes it float (an
    annotation alone may be the mistake), and for cross_entropy only when its dims cannot be the input's
    (a probability target). Reported: True."""
    if not isinstance(ids, TensorVal) or ids_node is None:
        return False
    loss = what != "F.one_hot()"
    empty = ids.domain.float_if_empty if ids.domain is not None else None
    if ids.dtype is None and empty and not loss:  # torch.tensor(filtered list): float32 when empty
        interp.flag(node, index_dtype.check_empty_class_ids(interp.source.segment(ids_node), empty), None)
        return True
    if ids.dtype is None or ids.dtype == "int64" or ids.dtype == "uint8" and loss and (input_rank is None or input_rank <= 2):
        return False
    made = ids.domain.made_float if ids.domain is not None else None
    if ids.dtype in _FLOATS and what == "F.cross_entropy()" and (
            input_rank is None or ids.shape is None or ids.shape.variadic or len(ids.shape.dims) == input_rank):
        return False  # probabilities have the input's shape
    text = interp.source.segment(ids_node)
    if ids.dtype in _FLOATS and not made:
        # as for any index: a float only an annotation gives contradicts the use (a warning, once per parameter)
        contradiction = declared_index_dtypes.contradicted(interp, ids_node, f"{what} takes `{text}` as class ids", ids.dtype)
        if contradiction is not False:
            if contradiction is not None:
                interp.flag(node, contradiction, None)
            return True
    interp.flag(node, index_dtype.check_class_ids(what, text, ids.dtype, made or "", input_rank), ids_node)
    return True


def check_one_hot(interp, node, ids_node, ids, classes) -> None:
    """`F.one_hot(labels, n)` with labels made for more than n classes, or written with one of n or more:
    torch raises 'Class values must be smaller than num_classes.'; labels of a dtype other than int64 (GL008)."""
    if _refused_dtype(interp, node, "F.one_hot()", ids_node, ids):
        return
    n = classes.dim if isinstance(classes, DimVal) else None
    if n is None or value(n) == -1 or ids_node is None:
        return
    text = interp.source.segment(ids_node)
    domain = ids.domain if isinstance(ids, TensorVal) else None
    origin = None
    if _made_for_more(domain, n):
        origin = domain.origin
    known = exact_values.largest_described(ids)
    if origin is None and known is not None and value(n) is not None and known[0] >= value(n):
        origin = known[1]
    if origin is None:
        return
    interp.flag(node, Violation(
        "GL011", ERROR,
        f"`{text}` holds {origin}, but F.one_hot() is given num_classes={dim_text(n)}; torch raises 'Class "
        f"values must be smaller than num_classes.' (a device-side assert on CUDA); pass the number of classes "
        f"the labels were made for, or remap the labels",
    ), None)


def _made_for_more(domain, classes) -> bool:
    """Ids made as positions among more than `classes` (not category codes, no sentinel fill)."""
    return domain is not None and domain.size is not None and (not domain.category or domain.bound_only) \
        and domain.sentinel is None and must_exceed(domain.size, classes)  # (a written id is one, whatever its name)


def _padding_message(text: str, domain, skipped: int, what: str) -> Violation:
    """Targets padded with a negative value the loss does not skip."""
    return Violation(
        "GL011", ERROR,
        f"target `{text}` can hold the padding value {domain.sentinel}{padding_source(domain)}, but {what} skips "
        f"only targets equal to its ignore_index ({skipped}); torch raises 'Target {domain.sentinel} is out of "
        f"bounds.' (a device-side assert on CUDA); pass `ignore_index={domain.sentinel}`, or pad the targets with "
        f"{skipped}",
    )


def _message(text: str, origin: str, classes, what: str) -> Violation:
    first = value(classes) if value(classes) is not None else dim_text(classes)
    return Violation(
        "GL011", ERROR,
        f"target `{text}` holds {origin}, but the input of {what} has {dim_text(classes)} classes along dim 1 "
        f"(valid targets 0 to {first - 1 if isinstance(first, int) else f'{first} - 1'}); torch raises "
        f"'Target {first} is out of bounds.' (a device-side assert on CUDA); size the output layer by the "
        f"number of classes, or remap the targets",
    )
