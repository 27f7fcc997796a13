"""Helpers shared by the runtime tests."""
import warnings


def silent(fn):
    """Run fn under raise-mode checks, turning every warning into an error: nothing may be reported."""
    from gather_lint.runtime import checked  # imports torch: only once a test has made sure it is there

    with warnings.catch_warnings():
        warnings.simplefilter("error")
        with checked():
            return fn()
