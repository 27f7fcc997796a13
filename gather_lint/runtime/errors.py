"""What the runtime mode raises or warns with."""


class GatherLintError(RuntimeError):
    """A gather/scatter-family call that torch would reject, or that would silently compute the wrong thing."""

    def __init__(self, message: str, code: str, location: str):
        super().__init__(message)
        self.code = code
        self.location = location


class GatherLintWarning(UserWarning):
    """The warn mode's twin of GatherLintError."""
