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
