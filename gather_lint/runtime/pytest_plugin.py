"""pytest options `--gather-lint-runtime` / `--gather-lint-runtime-warn`: run every test under the runtime mode."""
import pytest


def pytest_addoption(parser):
    group = parser.getgroup("gather-lint")
    group.addoption("--gather-lint-runtime", action="store_const", const="raise", default=None,
                    help="check torch gather/scatter-family calls in every test; a mistake fails the test")
    group.addoption("--gather-lint-runtime-warn", dest="gather_lint_runtime", action="store_const", const="warn",
                    help="the same, but warn once per call site instead of failing")


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_call(item):
    action = item.config.getoption("gather_lint_runtime", default=None)
    if not action:
        yield
        return
    from . import checking

    with checking(action):
        yield
