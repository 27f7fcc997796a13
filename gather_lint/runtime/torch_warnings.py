"""torch's own warnings from an intercepted call are shown at the user's line, not at the wrapper's.

A warning torch raises in C++ (TORCH_WARN) or in Python with `stacklevel=2` names the frame that
called the op; under the mode that frame is the wrapper in interception.py, so the user read
"interception.py:346: UserWarning: Using a target size ..." with no hint of their own line. While the
mode is on, a warning shown at one of gather-lint's files is shown at the first frame outside torch,
gather-lint and the warnings machinery instead. Which warnings show, and how often, is still the
warnings filter's decision (it has run by the time a warning is shown).
"""
import os
import warnings

import gather_lint.runtime.location as location

_SKIPPED = location.SKIPPED + (os.path.splitext(warnings.__file__)[0],)  # and the warnings machinery
_previous = None


def _show(message, category, filename, lineno, file=None, line=None):
    if filename.startswith(location.OWN_DIR):
        frame = location.user_frame_object(_SKIPPED)
        if frame is not None:
            filename, lineno, line = frame.f_code.co_filename, frame.f_lineno, None
    _previous(message, category, filename, lineno, file, line)


def install() -> None:
    global _previous
    if warnings.showwarning is _show:
        return
    _previous = warnings.showwarning
    warnings.showwarning = _show


def uninstall() -> None:
    global _previous
    if warnings.showwarning is _show and _previous is not None:
        warnings.showwarning = _previous
    _previous = None
