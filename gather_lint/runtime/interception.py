"""Interception by replacing the family's functions and methods with checked wrappers.

Only the family pays: torch.gather / Tensor.gather and siblings (functional, method, in-place),
F.embedding (nn.Embedding calls it through the module attribute), Tensor.__getitem__/__setitem__
(checked only when the key holds a tensor), and, to record where index values come from, topk /
sort / argsort / argmax / argmin / max / min. The arithmetic operators pay one frame until torch
raises (a size mismatch is then explained); torch.add and its siblings are wrapped only after a gather
first leaves a kept singleton (GL006). F.one_hot and the classification losses are looked at only once
torch has rejected them. Every other torch call runs untouched.

Installed while at least one reporter is active (push/pop); names bound before that
(`from torch import gather` in an already imported module) are rebound to the wrappers and put
back afterwards. Checks apply to every thread while installed.
"""
from __future__ import annotations

import functools
import os
import site
import sys
import threading
import warnings
from typing import Callable, Dict, List, Optional, Set, Tuple

import torch
import torch.nn.functional as F
import torch.nn.utils.rnn

from ..ops import GATHER, OPS, TAKE_ALONG, bind_arguments
import gather_lint.runtime.broadcast_checks as broadcast_checks
import gather_lint.runtime.device_records as device_records
import gather_lint.runtime.distribution_checks as distribution_checks
import gather_lint.runtime.double_shift_checks as double_shift_checks
import gather_lint.runtime.fast_path as fast_path
import gather_lint.runtime.gradient_checks as gradient_checks
import gather_lint.runtime.indexing as indexing
import gather_lint.runtime.masked_checks as masked_checks
import gather_lint.runtime.normalised_checks as normalised_checks
import gather_lint.runtime.operand_text as operand_text
import gather_lint.runtime.padding_checks as padding_checks
import gather_lint.runtime.counting_checks as counting_checks
import gather_lint.runtime.provenance as provenance
import gather_lint.runtime.reads as reads
import gather_lint.runtime.sequence_slots as sequence_slots
import gather_lint.runtime.shift_checks as shift_checks
import gather_lint.runtime.squeeze_checks as squeeze_checks
import gather_lint.runtime.torch_defects as torch_defects
import gather_lint.runtime.torch_verdict as torch_verdict
import gather_lint.runtime.torch_warnings as torch_warnings
from .checker import check_call
from .errors import GatherLintError
from .targets import EMBEDDING
# explain what torch rejected
import gather_lint.runtime.broadcast_causes as broadcast_causes
import gather_lint.runtime.loss_target_checks as loss_target_checks
import gather_lint.runtime.one_hot_checks as one_hot_checks
import gather_lint.runtime.count_checks as count_checks
import gather_lint.runtime.write_rejections as write_rejections
import gather_lint.runtime.argument_rejections as argument_rejections
import gather_lint.runtime.custom_functions as custom_functions

_stack: List[object] = []  # active reporters (GatherLintMode objects: action, level, _report)
_tensor_slots = None  # torch.Tensor's C sequence slots before the patch (sequence_slots)
_busy = False  # set while a check runs: torch calls made by the checks are not checked (any thread: cheap)
_lock = threading.RLock()
_saved: List[Tuple[object, str, object, bool]] = []  # (owner, name, original, owned by owner.__dict__)
_rebound: List[Tuple[dict, str, object]] = []  # module globals rebound to a wrapper
_originals: Dict[int, object] = {}  # id(original) -> wrapper, for rebinding
_operators_on = False
_copies_on = False  # Tensor.clone wrapped to carry index origins (installed with the first origin)
_Tensor = torch.Tensor
_is_tracing = torch._C._is_tracing  # torch.jit.is_tracing() minus its Python frame (eager callers only)


def active():
    return _stack[-1] if _stack else None


def push(reporter) -> None:
    with _lock:
        _stack.append(reporter)
        if len(_stack) == 1:
            _install()


def pop(reporter, error: Optional[BaseException] = None) -> None:
    """Deactivate `reporter`. An error leaving the checked block (a device-side assert) gets what the
    pending device records say as notes under its traceback."""
    with _lock:
        if error is not None:
            device_records.note_on(error)
        if reporter in _stack:
            _stack.remove(reporter)
        if not _stack:
            _uninstall()


def _idle() -> bool:
    """No checks here: none active, a check is running, or dynamo is tracing (Python-side facts only)."""
    return not _stack or _busy or torch.compiler.is_compiling()


def _report(reporter, violations, spelling: str, call=None) -> None:
    """call: (func, args, kwargs), for asking torch how it rejects the call (None: not asked)."""
    reporter._report(violations, spelling, call)


def _run_check(fn, *args):
    global _busy
    _busy = True
    try:
        if _is_tracing():  # sizes are traced tensors there: reading them is fine, the warnings are noise
            with warnings.catch_warnings():
                warnings.simplefilter("ignore", torch.jit.TracerWarning)
                return fn(*args)
        return fn(*args)
    finally:
        _busy = False


# --- the family --------------------------------------------------------------------------------

def _family(original, target, spelling: str):
    marks = target != EMBEDDING and target.family in (GATHER, TAKE_ALONG)
    fast = target in fast_path.FAST_OPS
    selects = target != EMBEDDING and target.name == "index_select"  # rows a later index_copy_ may write back
    embeds = target == EMBEDDING
    gathers = not embeds and target.name == "gather"
    normalised = provenance.NORMALISED._facts  # empty unless a softmax or log_softmax result is alive
    scores_ids = marks  # gather / take_along_dim: per-token scores of fed ids (GL007)
    fed = shift_checks.FED  # empty until an embedding looks up a sequence
    padded = padding_checks.SOURCES  # empty until a padded batch is seen (GL024)

    def checked(*args, **kwargs):
        if not _stack:
            return original(*args, **kwargs)
        reporter = _stack[-1]
        if gathers and normalised and not _busy and not torch.compiler.is_compiling():
            _check_normalised(reporter, target, spelling, args, kwargs)
        if fed and scores_ids and not _busy and not torch.compiler.is_compiling():
            _check_shift(reporter, target, spelling, args, kwargs)
        if embeds and len(args) >= 2 and not _busy:
            shift_checks.note_fed(args[0], args[1])
            if len(args) > 2 and args[2] is not None:  # nn.Embedding passes its padding_idx third
                padding_checks.note_padding_id(args[0], args[1], args[2])
        if padded and marks and not _busy and not torch.compiler.is_compiling():
            _check_padded_gather(reporter, target, spelling, args, kwargs)
        if embeds and len(args) >= 2 and not _busy and not torch.compiler.is_compiling():
            if device_records._pending:  # earlier asynchronous records that have landed (no sync)
                device_records.poll(reporter)
            if fast_path.clean_embedding(args[0], args[1], reporter.level):  # as the full check would pass them
                return _noted(original, args, kwargs) if device_records._pending else original(*args, **kwargs)
        if fast and not kwargs and len(args) == 3 and not _busy and not torch.compiler.is_compiling():
            # the common positional call: one cache lookup and one value check when it is clean
            if device_records._pending:  # earlier asynchronous records that have landed (no sync)
                device_records.poll(reporter)
            inp, dim, index = args
            axis = fast_path.clean_axis(target, inp, dim, index, reporter.level)
            if axis is not None:
                result = _noted(original, args, {}) if device_records._pending else original(inp, dim, index)
                if gathers and index.dtype == torch.int32:
                    _check_misread(reporter, spelling, (original, args, {}), inp, dim, index, result)
                if selects:
                    reads.note_select(inp, axis, index)
                if marks and index.dim() == inp.dim() and broadcast_checks.mark_kept_singleton(inp, index, axis, result) \
                        and not _operators_on:
                    _operators()
                return result
        if torch.compiler.is_compiling():  # shape checks traced into the graph, value checks as asserts
            violations = check_call(target, args, kwargs, reporter.level)
            if violations:
                _report(reporter, violations, spelling, (original, args, kwargs))
            return original(*args, **kwargs)
        if _busy:
            return original(*args, **kwargs)
        if device_records.has_pending():  # earlier asynchronous records that have landed (no sync)
            device_records.poll(reporter)
        violations = _run_check(check_call, target, args, kwargs, reporter.level)
        violations = custom_functions.own_backward(violations) if violations else violations
        if violations:
            _report(reporter, violations, spelling, (original, args, kwargs))
        result = _noted(original, args, kwargs, target if target != EMBEDDING else None, spelling)
        if gathers:
            inp, dim, index = _input_dim_index(target, args, kwargs)
            if isinstance(index, torch.Tensor) and index.dtype == torch.int32:
                _check_misread(reporter, spelling, (original, args, kwargs), inp, dim, index, result)
        if marks and not torch.jit.is_tracing():  # a trace records no Python-side facts
            _mark_kept(target, args, kwargs, result)
        elif selects:
            _note_select(target, args, kwargs)
        return result

    return checked


def _noted(original, args, kwargs, op=None, spelling: str = ""):
    """original(*args, **kwargs); torch's own error (on CPU at once) carries what the device records say,
    and for a family op (`op`) what it writes explains it where it can (write_rejections)."""
    try:
        return original(*args, **kwargs)
    except Exception as exc:
        device_records.note_on(exc)
        if op is None or not _stack or _reported(exc):
            raise
        rejected = exc
    if isinstance(rejected, TypeError):  # the parser refused the arguments (GL033)
        _explain(rejected, _asked(argument_rejections.rejected, op, spelling, args, kwargs), spelling)
    explains = argument_rejections.rejected_reduction if "reduce argument" in str(rejected) else write_rejections.rejected
    _explain(rejected, _asked(explains, op, args, kwargs, str(rejected)), spelling)


def _input_dim_index(op, args, kwargs) -> tuple:
    """(input, dim, index) of a family call; None for what the call does not pass."""
    if len(args) == 3 and not kwargs:  # the usual spelling: gather(input, dim, index)
        return (args[0], args[2], args[1]) if op.family == TAKE_ALONG else args
    bound = bind_arguments(op, args, kwargs, method=False) or {}
    return bound.get("input"), bound.get("dim"), bound.get(op.index_param)


def _check_misread(reporter, spelling: str, call, inp, dim, index, result) -> None:
    """GL008: a gather torch itself computed wrong (torch_defects): reported at the user's line."""
    if torch.jit.is_tracing():
        return
    violation = _run_check(torch_defects.misread_rows, inp, dim, index, result)
    if violation is not None:
        _report(reporter, [violation], spelling, call)


def _check_normalised(reporter, op, spelling: str, args, kwargs) -> None:
    """GL018: labels gathered from log-probs normalised along another dim."""
    inp, dim, index = _input_dim_index(op, args, kwargs)
    if not isinstance(inp, torch.Tensor) or not isinstance(dim, int) or not -inp.dim() <= dim < inp.dim():
        return
    violation = _run_check(normalised_checks.gathered, inp, dim % inp.dim(), index)
    if violation is not None:
        _report(reporter, [violation], spelling)


def _check_shift(reporter, op, spelling: str, args, kwargs) -> None:
    """GL007: the ids an embedding was just fed, gathered from the scores at their own positions."""
    inp, dim, index = _input_dim_index(op, args, kwargs)
    violation = _run_check(shift_checks.gathered, inp, dim, index, spelling, reporter.level) \
        or _run_check(double_shift_checks.gathered, inp, dim, index, spelling, reporter.level)
    if violation is not None:
        _report(reporter, [violation], spelling)


def _check_padded_gather(reporter, op, spelling: str, args, kwargs) -> None:
    """GL024: one position per row gathered where the batch is padding."""
    inp, dim, index = _input_dim_index(op, args, kwargs)
    violation = _run_check(padding_checks.gathered_read, inp, dim, index, reporter.level, spelling)
    if violation is not None:
        _report(reporter, [violation], spelling)


def _check_padded_read(x, key, picked: bool) -> None:
    """GL024: `h[:, p]` (picked False) or `h[torch.arange(B), pos]` reading padding of a remembered batch."""
    reporter = _stack[-1]
    read = padding_checks.picked_read if picked else padding_checks.position_read
    violation = _run_check(read, x, key, reporter.level)
    if violation is not None:
        _report(reporter, [violation], "Tensor.__getitem__")


def _mark_kept(op, args, kwargs, result) -> None:
    inp, dim, index = _input_dim_index(op, args, kwargs)
    if not isinstance(inp, torch.Tensor) or not isinstance(index, torch.Tensor) or not isinstance(dim, int):
        return
    if index.dim() != inp.dim() or not -inp.dim() <= dim < inp.dim():
        return
    if broadcast_checks.mark_kept_singleton(inp, index, dim % inp.dim(), result) and not _operators_on:
        _operators()


def _note_select(op, args, kwargs) -> None:
    inp, dim, index = _input_dim_index(op, args, kwargs)
    if isinstance(inp, torch.Tensor) and isinstance(index, torch.Tensor) and isinstance(dim, int) \
            and -inp.dim() <= dim < max(inp.dim(), 1):
        reads.note_select(inp, dim % max(inp.dim(), 1), index)


# --- indexing ----------------------------------------------------------------------------------

def _getitem(original):
    squeezed = squeeze_checks.SQUEEZED._facts
    padded = padding_checks.SOURCES

    def __getitem__(self, key):
        # the key test first: most keys are ints/slices, and type tests are cheaper than _idle()
        if not _stack or not (isinstance(key, _Tensor) or type(key) is tuple and indexing.has_tensor(key)) or _idle():
            if padded and type(key) is tuple and _stack and not _idle():
                _check_padded_read(self, key, False)
            try:  # free until torch raises
                return original(self, key)
            except IndexError as exc:
                if not (squeezed and _stack and "too many indices" in str(exc)) or _reported(exc):
                    raise
                rejected = exc
            _explain(rejected, squeeze_checks.too_many_indices(self), "Tensor.__getitem__")
        if not fast_path.clean_subscript(self, key):  # one in-range integer tensor key: nothing to report
            _run_check(_check_index, self, key, "Tensor.__getitem__", None, (original, (self, key), {}))
        if padded and type(key) is tuple:
            _check_padded_read(self, key, True)
        result = original(self, key)
        reads.note_subscript(result, key)
        if type(key) is _Tensor and broadcast_checks.mark_column_key(key, result) and not _operators_on:
            _operators()
        return result

    return __getitem__


def _setitem(original):
    def __setitem__(self, key, value):
        if not _stack or not (isinstance(key, _Tensor) or type(key) is tuple and indexing.has_tensor(key)) or _idle():
            return original(self, key, value)
        _run_check(_check_index, self, key, "Tensor.__setitem__", value, (original, (self, key, value), {}))
        try:
            return original(self, key, value)
        except RuntimeError as exc:
            if _reported(exc):
                raise
            rejected = exc
        _explain(rejected, indexing.rejected_write(key, str(rejected)) or indexing.rejected_put_dtype(self, value, str(rejected)),
                 "Tensor.__setitem__")

    return __setitem__


def _check_index(x, key, spelling, value, call) -> None:
    reporter = _stack[-1]  # callers checked _idle(): not compiling
    violation = indexing.rejected_key_dtype(key)
    if violation is None and value is not None and (x.device.type == "cpu" or reporter.level == "sync"):
        violation = indexing.masked_write_mismatch(x, key, value)
    if violation is not None:
        _report(reporter, [violation], spelling, call)
        return
    shape = tuple(x.shape)
    found = indexing.integer_indices(shape, key)
    if not found or x.device.type != "cpu" and reporter.level != "sync":
        return
    violation = indexing.out_of_range(shape, found, spelling.split(".")[-1])
    if violation is None and value is not None:
        op = reads.augmented_write(key, value)
        if op is not None:
            violation = indexing.overwriting_accumulate(shape, found, op)
        else:
            violation = indexing.conflicting_write(x, key, found, value) \
                or counting_checks.assigned(x, found, value, put=False)
    if violation is not None:
        _report(reporter, [violation], spelling, call)


def _index_put(original, name: str):
    """`x.index_put_(indices, values)` without accumulate: the assignment `x[indices] = values` spelled as a call."""
    def index_put(self, *args, **kwargs):
        if _stack and len(args) == 2 and not kwargs and type(args[0]) in (tuple, list) and not _idle():
            key = tuple(args[0])
            _run_check(_check_put, self, key, args[1], f"Tensor.{name}", (original, (self,) + args, {}))
        return original(self, *args, **kwargs)

    return index_put


def _put(original, name: str):
    """`x.put_(index, source)` without accumulate: `x.view(-1)[index] = source`, checked on x flattened."""
    def put(self, *args, **kwargs):
        if _stack and not _idle() and len(args) + len(kwargs) == 2 and set(kwargs) <= {"index", "source"}:
            index, source = (list(args) + [kwargs.get("index"), kwargs.get("source")][len(args):])[:2]
            if isinstance(index, _Tensor) and isinstance(source, _Tensor) and isinstance(self, _Tensor):
                _run_check(_check_put, self, (index,), source, f"Tensor.{name}", (original, (self,) + args, kwargs), True)
        return original(self, *args, **kwargs)

    return put


def _check_put(x, key, values, spelling, call, flat: bool = False) -> None:
    reporter = _stack[-1]
    if not isinstance(x, _Tensor):
        return
    if flat:  # put_ writes x as if flattened, at the index's entries in order
        x, key, values = x.reshape(-1), (key[0].reshape(-1),), values.reshape(-1)
    violation = indexing.rejected_key_dtype(key)  # a float index tensor: torch raises IndexError
    if violation is not None:
        _report(reporter, [violation], spelling, call)
        return
    if x.device.type != "cpu" and reporter.level != "sync":
        return
    found = indexing.integer_indices(tuple(x.shape), key)
    violation = (indexing.conflicting_write(x, key, found, values, put=True, flat=flat)
                 or counting_checks.assigned(x, found, values, put=True, flat=flat)) if found else None
    if violation is not None:
        _report(reporter, [violation], spelling, call)


def _masked_scatter(original, spelling: str, in_place: bool):
    """`x.masked_scatter(mask, source)` whose mask selects more positions than source has values (GL003)."""
    def masked_scatter(self, *args, **kwargs):
        if _stack and len(args) == 2 and not kwargs and not _idle():
            reporter = _stack[-1]
            violation = _run_check(masked_checks.short_source, self, args[0], args[1], in_place, reporter.level)
            if violation is not None:
                _report(reporter, [violation], spelling, (original, (self,) + args, {}))
        return original(self, *args, **kwargs)

    return masked_scatter


def _augmented(original, op: str):
    def augmented(self, other):
        if _stack and not torch.compiler.is_compiling():
            reads.note_augmented(self, op)
        return original(self, other)

    return augmented


# --- where index values come from (GL004) -------------------------------------------------------

_DIM_AT = {"topk": (2, -1), "sort": (1, -1), "argsort": (1, -1), "argmax": (1, None), "argmin": (1, None),
           "max": (1, None), "min": (1, None)}


def _producer(original, how: str):
    position, default = _DIM_AT[how]

    def producing(*args, **kwargs):
        result = original(*args, **kwargs)
        if _stack and args and not torch.compiler.is_compiling():
            dim = args[position] if len(args) > position else kwargs.get("dim", default)
            provenance.note_indices(how, args[0], dim, result)
            if not _copies_on and provenance.ORIGINS:
                _origin_copies()
        return result

    return producing


# --- GL006: a kept singleton meets a tensor without it ------------------------------------------

def _operator(original, symbol: str):
    facts = provenance.KEPT._facts

    reflected = original.__name__.startswith("__r")  # `2 * x` reaches x.__rmul__(2): self is on the right

    def operator(self, other):
        try:
            if facts and _stack and (id(self) in facts or id(other) in facts) and not torch.compiler.is_compiling():
                violation = broadcast_checks.combined(self, other, symbol, _spelled(symbol, reflected))
                if violation is not None:
                    _report(_stack[-1], [violation], f"Tensor.{original.__name__}")
                result = original(self, other)
                if isinstance(other, (int, float, _Tensor)):  # `-1 * x`, `returns - values`: still the marked shape
                    broadcast_checks.keep_mark(self, result, other)
                return result
            return original(self, other)
        except RuntimeError as exc:  # torch's size mismatch: explained below, outside this block (no chaining)
            if not _stack or _reported(exc):
                raise
            rejected = exc
        left, right = (other, self) if reflected else (self, other)  # as the user wrote them
        _explain(rejected, _asked(broadcast_causes.rejected, symbol, left, right, str(rejected)),
                 f"Tensor.{original.__name__}")

    return operator


def _spelled(kind: str, reflected: bool = False):
    """How the user's line spells the two operands, asked for only when there is a finding: (self's, other's)."""
    def texts():
        found = operand_text.operands(kind)
        return found[::-1] if found is not None and reflected else found
    return texts


def _arithmetic_function(original, symbol: str, spelling: str):
    """torch.sub(a, b) / a.sub(b) and the other arithmetic functions: the operators' check in call form."""
    facts = provenance.KEPT._facts

    def arithmetic(*args, **kwargs):
        if facts and _stack and len(args) >= 2 and (id(args[0]) in facts or id(args[1]) in facts) \
                and not torch.compiler.is_compiling():
            violation = broadcast_checks.combined(args[0], args[1], symbol, _spelled(spelling.split(".")[-1]))
            if violation is not None:
                _report(_stack[-1], [violation], spelling)
            result = original(*args, **kwargs)
            broadcast_checks.keep_mark(args[0], result, args[1])
            return result
        return original(*args, **kwargs)

    return arithmetic


def _keeping(original):
    """x.detach() / x.clone() of a marked column: the copy keeps the mark."""
    facts = provenance.KEPT._facts

    def keeping(self, *args, **kwargs):
        result = original(self, *args, **kwargs)
        if facts and id(self) in facts and _stack:
            broadcast_checks.keep_mark(self, result)
        return result

    return keeping


def _joining(original):
    """torch.cat of marked [n, 1] columns (one per step of a rollout) along dim 0: the result is marked."""
    facts = provenance.KEPT._facts

    def joining(tensors, *args, **kwargs):
        result = original(tensors, *args, **kwargs)
        if facts and _stack and type(tensors) in (list, tuple) and not torch.compiler.is_compiling():
            broadcast_checks.mark_joined_columns(tensors, args[0] if args else kwargs.get("dim", 0), result)
        return result

    return joining


def _width_one_layer(original):
    """F.linear (every nn.Linear): a width-1 layer's output column [N, 1] is marked (GL006)."""
    def linear(*args, **kwargs):
        result = original(*args, **kwargs)
        if _stack:
            weight = args[1] if len(args) > 1 else kwargs.get("weight")
            if not isinstance(weight, _Tensor) or weight.shape[0] != 1:  # most layers: one attribute read
                return result
            if not torch.compiler.is_compiling() and broadcast_checks.mark_width_one_output(weight, result) \
                    and not _operators_on:
                _operators()
        return result

    return linear


def _reduction(original):
    """sum / mean / logsumexp with keepdim=True: an [N, 1] column of row totals is marked (GL006)."""
    def reduce(*args, **kwargs):
        result = original(*args, **kwargs)
        if _stack and (kwargs.get("keepdim") is True or len(args) > 2 and args[2] is True) \
                and not torch.compiler.is_compiling():
            if broadcast_checks.mark_reduced_column(args[0], result) and not _operators_on:
                _operators()
        return result

    return reduce


def _squeeze(original):
    """A bare squeeze() that dropped a batch of one is remembered (GL001 when a later read fails)."""
    def squeeze(*args, **kwargs):
        result = original(*args, **kwargs)
        if _stack and len(args) == 1 and not kwargs and not torch.compiler.is_compiling():
            squeeze_checks.note(args, kwargs, result)
        return result

    return squeeze


def _loss(original, name: str):
    facts = provenance.KEPT._facts

    broadcasts = name in broadcast_checks.BROADCASTING_LOSSES

    def loss(input, target, *args, **kwargs):
        if facts and _stack and (id(input) in facts or id(target) in facts) and not torch.compiler.is_compiling():
            texts = _spelled(name)
            violation = broadcast_checks.combined(input, target, name, texts) \
                or broadcast_checks.loss_target(input, target, name, texts)
            if violation is not None:
                _report(_stack[-1], [violation], f"F.{name}")
        elif broadcasts and _stack and isinstance(input, _Tensor) and isinstance(target, _Tensor) \
                and input.dim() != target.dim() and not torch.compiler.is_compiling():
            violation = broadcast_checks.column_against_vector(input, target, f"F.{name}", _spelled(name))
            if violation is not None:
                _report(_stack[-1], [violation], f"F.{name}")
        return original(input, target, *args, **kwargs)

    return loss


def _log_prob(original):
    """`Distribution.log_prob` (GL006): a value that kept a trailing 1 against the batch shape."""
    def log_prob(self, value, *args, **kwargs):
        if _stack and not torch.compiler.is_compiling():
            violation = _run_check(distribution_checks.check, self, value, _spelled("log_prob"))
            if violation is not None:
                _report(_stack[-1], [violation], f"{type(self).__name__}.log_prob")
        return original(self, value, *args, **kwargs)

    return log_prob


def _normaliser_dim(original, function: str):
    """softmax / log_softmax / gumbel_softmax (GL002): a dim out of range, often a size passed as the
    dim. Looked at only once torch has rejected the call, so valid calls pay one frame."""
    def normalise(*args, **kwargs):
        try:
            return original(*args, **kwargs)
        except IndexError as exc:
            if not (_stack and "Dimension out of range" in str(exc)) or _reported(exc):
                raise
            rejected = exc
        _explain(rejected, normalised_checks.rejected_dim(function, args, kwargs), function)

    return normalise


def _gradient_taker(original):
    """torch.autograd.backward / grad (GL001): a gradient of another shape than its output's. Looked at
    only once torch has rejected the call, so valid backward passes pay nothing."""
    function = original.__name__

    def takes_gradient(*args, **kwargs):
        try:
            return original(*args, **kwargs)
        except RuntimeError as exc:
            if not (_stack and "Mismatch in shape" in str(exc)) or _reported(exc):
                raise
            rejected = exc
        _explain(rejected, gradient_checks.mismatch(function, args, kwargs), f"torch.autograd.{function}")

    return takes_gradient


def _explain(rejected: Exception, violation, spelling: str):
    """After torch rejected a call: reports the violation that explains it, if one was found, else
    passes torch's own error on. Called outside the except block, so torch's error is not chained to
    ours."""
    if violation is not None:
        verdict = (type(rejected), torch_verdict.message(rejected))
        _report(_stack[-1], [violation], spelling, (_answer, (verdict,), {}))
    raise rejected


def _explaining(original, spelling: str, explain):
    """original as it is; only once torch has rejected a call is `explain(args, kwargs, torch's message)`
    asked for the violation that explains it, so a valid call pays one frame."""
    def explained(*args, **kwargs):
        try:
            return original(*args, **kwargs)
        except Exception as exc:
            if not _stack or _reported(exc):
                raise
            rejected = exc
        _explain(rejected, _asked(explain, args, kwargs, str(rejected)), spelling)

    return explained


def _asked(explain, *args):
    """explain(*args) for an error torch already raised; a check that fails itself passes torch's error on."""
    if _busy:
        return None  # torch called by a running check: its error is the check's to handle
    try:
        return _run_check(explain, *args)
    except Exception:  # noqa: BLE001 (torch's own error is the answer then)
        return None


def _reported(exc) -> bool:
    """A rejection already explained by a nested checked call (gumbel_softmax's own softmax), or one met
    while compiling: passed on as it is."""
    return isinstance(exc, GatherLintError) or torch.compiler.is_compiling()


def _answer(verdict):
    """Stands in for a call torch has already rejected: reporting asks it for torch's verdict."""
    kind, text = verdict
    raise kind(text)


@functools.lru_cache(maxsize=None)
def _distributions() -> Tuple[type, ...]:
    """The distribution classes that define their own log_prob (each is patched on its own class); torch's
    own, so found once (a scan of the module took a tenth of entering a check block)."""
    found = []
    for name in dir(torch.distributions):
        cls = getattr(torch.distributions, name)
        if isinstance(cls, type) and issubclass(cls, torch.distributions.Distribution) and "log_prob" in vars(cls):
            found.append(cls)
    return tuple(found)


def _normaliser(original, function: str):
    """log_softmax / softmax in any spelling: its result remembers the dim it was normalised over (GL018)."""
    def normaliser(*args, **kwargs):
        result = original(*args, **kwargs)
        if _stack and not torch.compiler.is_compiling():
            normalised_checks.mark(args, kwargs, result, function)
        return result

    return normaliser


def _nll_loss(original):
    facts = provenance.NORMALISED._facts
    fed = shift_checks.FED

    def nll_loss(input, *args, **kwargs):
        if facts and _stack and not torch.compiler.is_compiling():
            violation = normalised_checks.loss_input(input)
            if violation is not None:
                _report(_stack[-1], [violation], "F.nll_loss")
        if fed and _stack and not _idle():
            _check_loss_shift(input, args, kwargs, "F.nll_loss")
        return original(input, *args, **kwargs)

    return nll_loss


def _cross_entropy(original):
    fed = shift_checks.FED

    def cross_entropy(input, *args, **kwargs):
        if fed and _stack and not _idle():
            _check_loss_shift(input, args, kwargs, "F.cross_entropy")
        return original(input, *args, **kwargs)

    return cross_entropy


def _loss_target(function: str):
    """Explains a classification loss torch rejected for its target (loss_target_checks)."""
    def explain(args, kwargs, torch_message: str):
        input = args[0] if args else kwargs.get("input")
        return loss_target_checks.rejected(function, input, args[1:], kwargs, torch_message)

    return explain


def _check_loss_shift(input, args, kwargs, spelling: str) -> None:
    """GL007: a loss whose target is the ids the model was fed, at the logits' own positions."""
    reporter = _stack[-1]
    target = args[0] if args else kwargs.get("target")
    ignore_index = kwargs.get("ignore_index", args[3] if len(args) > 3 else -100)
    violation = _run_check(shift_checks.loss_target, input, target, ignore_index, spelling, reporter.level) \
        or _run_check(double_shift_checks.loss_target, input, target, ignore_index, spelling, reporter.level)
    if violation is not None:
        _report(reporter, [violation], spelling)


_OPERATORS = {"__add__": "+", "__radd__": "+", "__sub__": "-", "__rsub__": "-", "__mul__": "*", "__rmul__": "*",
              "__truediv__": "/", "__rtruediv__": "/"}
_ARITHMETIC = {"add": "+", "sub": "-", "mul": "*", "div": "/"}
_LOSSES = ("mse_loss", "l1_loss", "smooth_l1_loss", "huber_loss", "binary_cross_entropy",
           "binary_cross_entropy_with_logits")


def _copying(original):
    """x.clone() of recorded indices: the copy keeps where its values came from (GL004 on a copy)."""
    facts = provenance.ORIGINS._facts

    def copying(self, *args, **kwargs):
        result = original(self, *args, **kwargs)
        if facts and _stack and not torch.compiler.is_compiling():
            provenance.carry_origin(self, result)
        return result

    return copying


def _origin_copies() -> None:
    """Installed once indices with an origin exist: most programs never pay for the clone wrapper."""
    global _copies_on
    with _lock:
        if _copies_on or not _stack:
            return
        _copies_on = True
        for owner in (torch.Tensor, torch):  # x.clone() and torch.clone(x)
            _patch(owner, "clone", _copying(owner.clone))


def _operators() -> None:
    global _operators_on
    with _lock:
        if _operators_on or not _stack:
            return
        _operators_on = True  # the operators themselves are patched from the start (_places)
        for name, symbol in _ARITHMETIC.items():
            for owner, prefix in ((torch, "torch."), (torch.Tensor, "Tensor.")):
                _patch(owner, name, _arithmetic_function(getattr(owner, name), symbol, prefix + name))
        for name in ("detach", "clone"):
            _patch(torch.Tensor, name, _keeping(getattr(torch.Tensor, name)))
        _patch(torch, "cat", _joining(torch.cat))


# --- installing ---------------------------------------------------------------------------------

def _places() -> List[Tuple[object, str, Callable]]:
    places = []
    for name, op in OPS.items():
        for owner, prefix in ((torch, "torch."), (torch.Tensor, "Tensor.")):
            if hasattr(owner, name) and (owner is torch.Tensor or op.has_function):
                places.append((owner, name, lambda o, op=op, s=prefix + name: _family(o, op, s)))
    places.append((F, "embedding", lambda o: _family(o, EMBEDDING, "F.embedding")))
    places.append((torch.Tensor, "__getitem__", _getitem))
    places.append((torch.Tensor, "__setitem__", _setitem))
    for name in ("index_put_", "index_put"):
        places.append((torch.Tensor, name, lambda o, name=name: _index_put(o, name)))
    for name in ("put_", "put"):
        places.append((torch.Tensor, name, lambda o, name=name: _put(o, name)))
    for owner, prefix in ((torch, "torch."), (torch.Tensor, "Tensor.")):
        places.append((owner, "masked_scatter", lambda o, s=prefix + "masked_scatter": _masked_scatter(o, s, False)))
    places.append((torch.Tensor, "masked_scatter_", lambda o: _masked_scatter(o, "Tensor.masked_scatter_", True)))
    for name, symbol in _OPERATORS.items():  # GL006 on marked operands; a size mismatch explained (broadcast_causes)
        places.append((torch.Tensor, name, lambda o, symbol=symbol: _operator(o, symbol)))
    places.append((torch.Tensor, "__iadd__", lambda o: _augmented(o, "+=")))
    places.append((torch.Tensor, "__isub__", lambda o: _augmented(o, "-=")))
    for how in _DIM_AT:
        for owner, prefix in ((torch, "torch."), (torch.Tensor, "Tensor.")):
            if how == "topk":  # GL035: a k past the size, explained once torch has raised
                places.append((owner, how, lambda o, s=prefix + how: _producer(
                    _explaining(o, s, count_checks.rejected_topk), "topk")))
            else:
                places.append((owner, how, lambda o, how=how: _producer(o, how)))
    places.append((F, "linear", _width_one_layer))
    for owner in (torch, torch.Tensor):
        places.append((owner, "squeeze", _squeeze))
    for name in ("sum", "mean", "logsumexp"):
        for owner in (torch, torch.Tensor):
            places.append((owner, name, _reduction))
    for name in _LOSSES:
        places.append((F, name, lambda o, name=name: _loss(o, name)))
    for owner in (F, torch, torch.Tensor):
        for function in ("log_softmax", "softmax"):
            places.append((owner, function, lambda o, f=function: _normaliser(_normaliser_dim(o, f), f)))
    places.append((F, "gumbel_softmax", lambda o: _normaliser_dim(o, "gumbel_softmax")))
    places.append((F, "nll_loss", lambda o: _nll_loss(_explaining(o, "F.nll_loss", _loss_target("nll_loss")))))
    places.append((F, "one_hot", lambda o: _explaining(o, "F.one_hot", one_hot_checks.rejected)))
    for cls in _distributions():
        places.append((cls, "log_prob", _log_prob))
    places.append((F, "cross_entropy",
                   lambda o: _cross_entropy(_explaining(o, "F.cross_entropy", _loss_target("cross_entropy")))))
    places.append((torch.autograd, "backward", _gradient_taker))
    places.append((torch.autograd, "grad", _gradient_taker))
    places.append((torch.nn.Module, "__call__", _module_call))
    places.append((torch.nn.utils.rnn, "pad_sequence", _pad_sequence))
    return places


_ID_DTYPES = (torch.long, torch.int)


def _module_call(original):
    """Every module call: one with ids and an attention mask of their shape remembers the mask (GL024)."""
    def __call__(self, *args, **kwargs):
        if _stack and (kwargs or len(args) > 1):
            ids = args[0] if args else kwargs.get("input_ids")  # inner layers get float states: one test here
            if type(ids) is torch.Tensor and ids.dtype in _ID_DTYPES and not _busy and not torch.compiler.is_compiling():
                padding_checks.note_module_call(self, args, kwargs)
        return original(self, *args, **kwargs)

    return __call__


def _pad_sequence(original):
    """pad_sequence(seqs, batch_first=True): the result remembers each row's length (GL024)."""
    def pad_sequence(sequences, *args, **kwargs):
        result = original(sequences, *args, **kwargs)
        if _stack and not torch.compiler.is_compiling():
            batch_first = args[0] if args else kwargs.get("batch_first", False)
            side = args[2] if len(args) > 2 else kwargs.get("padding_side", "right")
            if batch_first is True and type(sequences) in (list, tuple):
                padding_checks.note_padded(result, [len(s) for s in sequences], side)
        return result

    return pad_sequence


def _patch(owner, name: str, wrapper) -> None:
    original = getattr(owner, name)
    _saved.append((owner, name, original, name in vars(owner)))
    setattr(owner, name, wrapper)
    _originals[id(original)] = wrapper


def _install() -> None:
    global _tensor_slots
    _tensor_slots = sequence_slots.read(torch.Tensor)
    for owner, name, make in _places():
        _patch(owner, name, make(getattr(owner, name)))
    sequence_slots.restore(torch.Tensor, _tensor_slots)  # a patched __getitem__ must not make tensors sequences
    _rebind_imported_names()
    torch_warnings.install()


def _uninstall() -> None:
    global _operators_on, _copies_on
    for namespace, name, original in reversed(_rebound):
        namespace[name] = original
    _rebound.clear()
    for owner, name, original, owned in reversed(_saved):
        if owned:
            setattr(owner, name, original)
        else:
            delattr(owner, name)  # the subclass attribute shadowed the base's slot: remove it
    sequence_slots.restore(torch.Tensor, _tensor_slots)
    _saved.clear()
    _originals.clear()
    torch_warnings.uninstall()
    _operators_on = False
    _copies_on = False
    reads.clear()
    device_records.discard()
    provenance.ORIGINS.clear()
    provenance.KEPT.clear()
    provenance.NORMALISED.clear()
    shift_checks.clear()
    padding_checks.clear()
    squeeze_checks.clear()
    fast_path.clear()


_SKIP_MODULES = ("torch", "gather_lint", "numpy", "_", "builtins", "sys", "typing")


def _library_dirs() -> tuple:
    """The standard library and site-packages directories: code there is not the user's."""
    dirs = {os.path.dirname(os.__file__)}
    dirs.update(getattr(site, "getsitepackages", list)())
    if hasattr(site, "getusersitepackages"):
        dirs.add(site.getusersitepackages())
    return tuple(d.rstrip(os.sep) + os.sep for d in dirs)


_LIBRARY_DIRS = _library_dirs()
_user_module: Dict[str, bool] = {}  # module name -> is it the user's code (not the standard library or site-packages)
_not_user: Set[str] = set()  # the names _user_module answers False for: left out of each scan in one set difference


def _is_user_module(modname: str, module) -> bool:
    known = _user_module.get(modname)
    if known is None:
        path = getattr(module, "__file__", None) or ""
        private = modname.startswith(_SKIP_MODULES) and modname not in ("__main__", "__mp_main__") \
            or modname in sys.builtin_module_names  # posix, time, itertools: no file, never the user's
        known = not private and not (path and path.startswith(_LIBRARY_DIRS))
        _user_module[modname] = known
        if not known:
            _not_user.add(modname)
    return known


def _rebind_imported_names() -> None:
    """`from torch import gather` in a module imported before checks started: point it at the wrapper.
    Only the user's modules are scanned (installed libraries and the standard library are not)."""
    modules = sys.modules
    # a thousand modules are loaded and a few are the user's: each check block scanned them all (0.5 ms)
    for modname in sorted(modules.keys() - _not_user):
        module = modules.get(modname)
        if module is None or not _is_user_module(modname, module):
            continue
        namespace = getattr(module, "__dict__", None)
        if not isinstance(namespace, dict):
            continue
        for name, value in list(namespace.items()):
            wrapper = _originals.get(id(value))
            if wrapper is not None and callable(value):
                _rebound.append((namespace, name, value))
                namespace[name] = wrapper
