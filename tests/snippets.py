"""Running a test's code snippet in torch, the oracle for what a finding claims."""
import textwrap

SNIPPET_FILE = "<snippet>"  # the snippet's frames in a traceback carry this file name


def run_snippet(code: str) -> dict:
    """The snippet's globals after running it as a script (its `if __name__ == "__main__":` driver included)."""
    scope: dict = {"__name__": "__main__"}
    exec(compile(textwrap.dedent(code), SNIPPET_FILE, "exec"), scope)
    return scope
