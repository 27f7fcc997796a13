"""pytest option `--gather-lint-runtime[=warn]`: run every test under the runtime mode.

`--gather-lint-runtime` fails a test on a call torch would reject (with torch's exception type) and
warns (GatherLintWarning, at the test's line) on a silent mistake; add
`-W error::gather_lint.runtime.GatherLintWarning` to fail on those too. `--gather-lint-runtime=warn`
only warns; `=off` turns off a GATHER_LINT_RUNTIME set in the environment. An option with an optional
value swallows the next word (`--gather-lint-runtime tests/`); a swallowed path is handed back to
pytest's own list of paths.
"""
import argparse

import pytest

_MODES = ("raise", "warn", "off")


class _RuntimeOption(argparse.Action):
    def __call__(self, parser, namespace, value, option_string=None):
        if value is None or value in _MODES:
            setattr(namespace, self.dest, value or "raise")
            return
        setattr(namespace, self.dest, "raise")
        swallowed = getattr(namespace, "gather_lint_swallowed", None) or []
        setattr(namespace, "gather_lint_swallowed", swallowed + [value])


def pytest_addoption(parser):
    group = parser.getgroup("gather-lint")
    group.addoption("--gather-lint-runtime", dest="gather_lint_runtime", action=_RuntimeOption, nargs="?",
                    default=None, metavar="warn",
                    help="check torch gather/scatter-family calls in every test; a mistake fails the test "
                         "(=warn: warn once per call site instead)")


def pytest_configure(config):
    swallowed = getattr(config.option, "gather_lint_swallowed", None)
    if swallowed:
        # with no other path given pytest fell back to its defaults: the swallowed paths replace them
        given = config.option.file_or_dir or []
        config.args[:] = list(given) + swallowed


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_call(item):
    action = item.config.getoption("gather_lint_runtime", default=None)
    if not action:
        from . import from_environment

        action = from_environment()
    if action == "off":
        yield
        return
    from . import checked

    with checked(action):
        yield
