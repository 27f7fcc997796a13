"""What a checked call's findings become: a raised error, Python warnings, or nothing.

Raise mode raises only what torch itself rejects, as an instance of torch's own exception type
whose message is gather-lint's explanation followed by torch's message. Everything else is a
`GatherLintWarning` attributed to the user's line, through `warnings.warn_explicit`, so the warnings
filter (`-W`, `filterwarnings`, pytest) decides what is shown; the text is fixed per call site, so
the default filter shows it once per site. Errors are decided before any warning is emitted.
"""
from __future__ import annotations

import types
import warnings
from typing import Dict, Tuple

import torch

from ..contract import ERROR
import gather_lint.runtime.location as location
import gather_lint.runtime.torch_verdict as torch_verdict
from .errors import GatherLintError, GatherLintWarning, error_type

RAISE, WARN = "raise", "warn"

_SITE_TEXT: Dict[Tuple[str, str, int], str] = {}  # (code, file, line) -> the text first warned there
_SITE_TEXT_MAX = 65536


def report(violations, spelling: str, call, action: str) -> None:
    """call: (func, args, kwargs) of the intercepted call, used only to ask torch for its verdict."""
    __tracebackhide__ = True  # pytest: show the user's frame, not ours
    frame = location.user_frame_object()
    where = None if frame is None else (frame.f_code.co_filename, frame.f_lineno, frame.f_code.co_name)
    suffix = f" [at {location.describe(where)}{_rank()}]"
    ordered = sorted(violations, key=lambda v: v.severity != ERROR)  # errors first, stable within each
    if action == RAISE:
        errors = [v for v in ordered if v.severity == ERROR]
        if errors:
            rejected = torch_verdict.rejection(*call) if call is not None else torch_verdict.UNKNOWN
            if rejected is not None:
                _raise(errors[0], spelling, suffix, rejected, where, frame)
            # torch runs this call: it is reported, never stopped
    for v in ordered:
        _warn(f"{v.code} {spelling}(): {v.message}{suffix}", v.code, frame)


def _raise(v, spelling: str, suffix: str, rejected, where, frame) -> None:
    __tracebackhide__ = True
    text = f"{v.code} {spelling}(): {v.message}{suffix}"
    place = location.describe(where)
    if rejected is torch_verdict.UNKNOWN:
        exc = GatherLintError(text, v.code, place)
    else:
        kind, torch_message = rejected
        exc = error_type(kind)(f"{text}\n{torch_message}", v.code, place)
    if frame is not None:  # the traceback ends at the user's line, not in gather-lint or torch
        exc = exc.with_traceback(types.TracebackType(None, frame, frame.f_lasti, frame.f_lineno))
    raise exc


def _warn(text: str, code: str, frame) -> None:
    if frame is None:
        warnings.warn(GatherLintWarning(text), stacklevel=3)
        return
    filename, lineno = frame.f_code.co_filename, frame.f_lineno
    key = (code, filename, lineno)
    first = _SITE_TEXT.get(key)
    if first is None:
        if len(_SITE_TEXT) >= _SITE_TEXT_MAX:
            _SITE_TEXT.clear()
        first = _SITE_TEXT[key] = text
    module_globals = frame.f_globals
    registry = module_globals.setdefault("__warningregistry__", {})
    warnings.warn_explicit(GatherLintWarning(first), GatherLintWarning, filename, lineno,
                           module=module_globals.get("__name__", "<unknown>"), registry=registry)


def _rank() -> str:
    dist = getattr(torch, "distributed", None)
    if dist is not None and dist.is_available() and dist.is_initialized():
        return f", rank {dist.get_rank()}"
    return ""
