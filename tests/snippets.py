"""Running a test's code snippet in torch, the oracle for what a finding claims."""
import textwrap

SNIPPET_FILE = "<snippet>"  # the snippet's frames in a traceback carry this file name


def run_snippet(code: str) -> dict:
    """The snippet's globals after running it as a script (its `if __name__ == "__main__":` driver included)."""
    scope: dict = {"__name__": "__main__"}
    exec(compile(textwrap.dedent(code), SNIPPET_FILE, "exec"), scope)
    return scope


def run_program(program: str, result: str = "RESULT"):
    """Run a complete program as a script and give back the global it leaves under `result`."""
    scope: dict = {"__name__": "__main__"}
    exec(compile(program, "<program>", "exec"), scope)
    return scope[result]


def expected_lines(program: str) -> list:
    """The lines a program marks with a trailing `# expect`: where its findings belong."""
    return [n for n, text in enumerate(program.splitlines(), 1) if text.endswith("# expect")]


def call_run(code: str, name: str = "run"):
    """Run a snippet as a module (not as a script: a `__main__` driver stays out) and call its `run()`."""
    scope: dict = {"__name__": "snippet"}
    exec(compile(textwrap.dedent(code), SNIPPET_FILE, "exec"), scope)
    return scope[name]()


def reported_and_raised(findings: list, code: str, codes: list, error, match: str) -> None:
    """The linter's `findings` on `code` have exactly `codes`, and torch raises `error` (matching `match`) on it:
    the claim of a raising rule, checked by the oracle."""
    import pytest

    assert [v.code for v in findings] == codes
    with pytest.raises(error, match=match):
        run_snippet(code)


def silent_and_run(findings: list, code: str) -> None:
    """No finding on `code`, and torch runs it."""
    assert findings == []
    run_snippet(code)
