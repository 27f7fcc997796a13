"""What the runtime mode raises or warns with.

A raised error is also an instance of the exception type torch raises for the same call
(``GatherLintIndexError`` is an ``IndexError``), so ``except IndexError`` and
``pytest.raises(IndexError, match=<torch's message>)`` written against torch keep working.
"""
from typing import Dict


class GatherLintError(RuntimeError):
    """A gather/scatter-family call that torch would reject, or that would silently compute the wrong thing."""

    def __init__(self, message: str, code: str, location: str):
        super().__init__(message)
        self.code = code
        self.location = location

    def __reduce__(self):
        return type(self), (str(self), self.code, self.location)


class GatherLintIndexError(GatherLintError, IndexError):
    """torch raises IndexError here (index_select/index_copy_/index_fill_ out of range, dim out of range)."""


class GatherLintValueError(GatherLintError, ValueError):
    pass


class GatherLintTypeError(GatherLintError, TypeError):
    pass


class GatherLintWarning(UserWarning):
    """Warning-severity findings (torch runs, the result is likely wrong), and every finding in warn mode."""


_TYPED: Dict[type, type] = {RuntimeError: GatherLintError, IndexError: GatherLintIndexError,
                            ValueError: GatherLintValueError, TypeError: GatherLintTypeError}


def error_type(torch_type: type) -> type:
    """The GatherLintError subclass that is also a `torch_type` (made once for torch's own exception classes)."""
    typed = _TYPED.get(torch_type)
    if typed is None:
        try:
            typed = type(f"GatherLint{torch_type.__name__}", (GatherLintError, torch_type), {})
        except TypeError:  # an exception class with its own instance layout cannot be mixed in
            typed = GatherLintError
        _TYPED[torch_type] = typed
    return typed
