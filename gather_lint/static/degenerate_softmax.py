"""GL018 with no reader needed: a softmax / log_softmax whose own dim makes it wrong whatever reads it.

* Over a dim of size 1 (`F.softmax(self.score(h), dim=-1)` with `score = nn.Linear(d, 1)`, or a
  `[N, 1]` column): every weight is exactly 1.0 (every log-weight 0.0), so an attention pooling
  becomes a plain sum. Torch runs it silently.
* Over a flattened batch (`scores.view(B * T, S)` normalised over dim 0): each distribution spans
  the rows of every sample, so one sample's weights depend on the others'. Only a dim whose size
  is a product with a batch-named factor counts, and only when no other dim holds the batch (a
  `[B*N, B*N]` contrastive similarity is normalised over either dim on purpose).

Softmaxes are in most model files, so the prefilter below keeps a file only when it spells the
evidence these checks need: a size-1 layer or annotation, or a shape comment near a softmax, or a softmax over a
non-class dim in a file that reshapes; a script (with a `__main__` driver) is always kept.
"""
from __future__ import annotations

import ast
import re

from ..dims import Sym, must_equal, value
from ..rules import gl018_normalised_other_dim as rule
from . import script_drivers
from .text_scan import positions
from .values import DimVal, TensorVal
from .text_scan import file_test
from .interp_helpers import _literal_shape
from .last_assignment import last_assigned
from .normalised_axis import _bindings
from .names import BATCH_NAMES as _BATCH_NAMES, is_batch
from .tree_walk import called_name

_TO_ONE = re.compile(r"[^\n]*?,\s*1\s*(?:,\s*bias\s*=\s*\w+\s*)?\)")  # the rest of `Linear(d, 1)`
_COMMENTED_ONE = re.compile(r"#[^\n]*[\[(,\s]1\s*[\])]")  # `# (seq_len * batch, 1)`, `# [N, 1]`
_CONTEXT_LINES = 3  # how far above a softmax a shape comment may say its input's last dim is 1


@file_test
def spelled_in(text: str, off_class_softmax: bool) -> bool:
    """A file that can hold either softmax: a size-1 dim spelled near one, or (off_class_softmax:
    a softmax over dim 0 or another non-class dim) a reshape that may flatten the batch."""
    if "oftmax" not in text:
        return False
    if _whole_file(text, off_class_softmax):
        return True
    return _singleton_spelled(text)


@file_test
def block_filter(text: str, off_class_softmax: bool):
    """Which blocks of a file spelled_in to parse: every softmax block of a script or of a file that
    may flatten the batch; elsewhere only a softmax block that spells its size-1 dim itself (a model
    file's `nn.Linear(d, 1)` head is seldom in the class of its attention softmax)."""
    if _whole_file(text, off_class_softmax):
        return lambda chunk: "oftmax(" in chunk
    return lambda chunk: "oftmax(" in chunk and _singleton_spelled(chunk)


def _whole_file(text: str, off_class_softmax: bool) -> bool:
    # a script's few blocks cost nothing, and its driver gives shapes that no comment spells
    return script_drivers.is_script(text) or (off_class_softmax and ("view(" in text or "reshape(" in text))


def _singleton_spelled(text: str) -> bool:
    return '1"]' in text or _linear_to_one(text) or _commented_near_softmax(text)


def _linear_to_one(text: str) -> bool:
    return any(_TO_ONE.match(text, at + 7) for at in positions(text, "Linear("))


def _commented_near_softmax(text: str) -> bool:
    """A shape comment ending in a size-1 dim on a softmax's line or the few lines above it (a
    `keepdim=True` or `unsqueeze` there is too common in attention code to parse every such block)."""
    for at in positions(text, "oftmax("):
        end = text.find("\n", at)
        start = at
        for _ in range(_CONTEXT_LINES + 1):
            start = text.rfind("\n", 0, start)
            if start == -1:
                break
        window = text[start + 1:end if end != -1 else len(text)]
        if "#" in window and _COMMENTED_ONE.search(window):
            return True
    return False


def check(interp, mark) -> None:
    """A fresh softmax mark (normalised_consumers.Mark): flag its dim when it is 1 or a flattened batch."""
    dims = mark.shape.dims
    size = dims[mark.axis]
    along = f"dim {mark.axis} (torch's choice when no dim is given)" if mark.implicit else f"dim {mark.axis}"
    what = f"`{mark.input}` {mark.shape}" if mark.input else f"its input {mark.shape}"
    if must_equal(size, 1):
        if getattr(interp, "ones_passed", False):
            return  # the 1 may be the data's (a one-token prompt, a batch of one), where one weight is right
        if _written_out(interp, mark):
            return  # every size of a tensor written out number by number is the data's, its 1 too
        interp.flag(mark.node, rule.check_singleton(mark.call, what, mark.function, along, mark.axis, len(dims)), None)
    elif _flattened_batch(size) and not any(_flattened_batch(d) or is_batch(d) for i, d in enumerate(dims)
                                            if i != mark.axis):
        interp.flag(mark.node, rule.check_flattened_batch(mark.call, what, mark.function, along, size, len(dims)),
                    None)


_LITERAL_MAKERS = {"tensor", "as_tensor", "Tensor", "FloatTensor", "DoubleTensor", "HalfTensor"}
_KEEP_SIZES = {"t", "float", "double", "half", "clone", "detach", "contiguous"}  # move or keep the literal's 1


def _written_out(interp, mark) -> bool:
    """The softmax's input is a tensor written out as a nested list of numbers (`torch.tensor([[0.1,
    0.3, 0.6]])`), maybe transposed: its size-1 dim is the count of rows the author wrote (one negative
    per positive in a test's expected value), the data's like a batch of one, not a dim the code's own
    layers or reshapes make (`nn.Linear(d, 1)`, `unsqueeze(-1)`), so one weight of 1.0 is what was asked."""
    node = mark.node
    candidates = ([node.func.value] if isinstance(node.func, ast.Attribute) else []) + list(node.args[:1])
    source = next((c for c in candidates if interp.source.segment(c) == mark.input), None)
    made = _reaching_value(interp, source, node.lineno)
    while made is not None:
        if isinstance(made, ast.Attribute) and made.attr == "T":
            made = made.value
            continue
        if not isinstance(made, ast.Call):
            return False
        name = called_name(made)
        if name in _KEEP_SIZES and isinstance(made.func, ast.Attribute) and not made.args and not made.keywords:
            made = made.func.value
            continue
        return name in _LITERAL_MAKERS and len(made.args) == 1 and _literal_shape(made.args[0])[0] is not None
    return False


def _reaching_value(interp, node, line: int):
    """The expression itself, or for a name the value of its last assignment before `line` when every
    binding of it is a plain `name = value` statement of the function's own body (straight-line code:
    the last one above `line` is the one that reaches it)."""
    if not isinstance(node, ast.Name):
        return node
    function = getattr(interp, "function", None)
    if function is None or not hasattr(function, "body"):
        return None
    stores = _bindings(function).get(node.id, ())
    body = set(map(id, function.body))
    if not stores or any(not isinstance(s, ast.Assign) or id(s) not in body or len(s.targets) != 1
                         or not isinstance(s.targets[0], ast.Name) for s in stores):
        return None
    return last_assigned(interp, node.id, line)


def _flattened_batch(dim) -> bool:
    """`B*T`: a product of sizes, one of them the batch's."""
    if not isinstance(dim, Sym) or "*" not in dim.name:
        return False
    factors = [f.strip().lower() for f in dim.name.split("*")]
    return len(factors) >= 2 and any(f in _BATCH_NAMES for f in factors)


def ones_passed(caller, facts: dict, instance_facts) -> bool:
    """A call (or one of its callers) passes a size of 1 in: a tensor with a dim of 1, or the int 1.
    A softmax over a size-1 dim is then only the data's (attention over the single position of a
    one-token prompt) and not the code's, so it is not reported under these facts."""
    if getattr(caller, "ones_passed", False):
        return True
    values = list(facts.values()) + [fact for _, fact in instance_facts]
    return any(_holds_one(v) for v in values)


def _holds_one(v) -> bool:
    if isinstance(v, DimVal):
        return value(v.dim) == 1
    if isinstance(v, TensorVal) and v.shape is not None:
        return any(value(d) == 1 for d in v.shape.dims)
    return False
