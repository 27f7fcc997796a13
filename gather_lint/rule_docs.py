"""Rule pages, rendered from the rule modules themselves (docstring, examples, fix safety), so the
pages in `rules/` and `gather-lint rule GLxxx` can never drift from the code."""
from __future__ import annotations

import re
import textwrap
from typing import List

from .rules import ALL_RULES, RULES_BY_CODE, is_runtime, is_static

_FIX_SAFETY = {
    None: "No automatic fix: the right change depends on intent the code does not state.",
    "safe": "The fix is safe: it keeps the meaning of correct code and only changes code that torch rejects.",
    "unsafe": "The fix is unsafe (applied only with `--unsafe-fixes`): it changes the result (its shape or its "
              "values, to the intended ones), so code after the call may need adjusting.",
}
_REFERENCES = [
    "[torch.gather](https://docs.pytorch.org/docs/stable/generated/torch.gather.html)",
    "[Tensor.scatter_](https://docs.pytorch.org/docs/stable/generated/torch.Tensor.scatter_.html)",
    "[torch.take_along_dim](https://docs.pytorch.org/docs/stable/generated/torch.take_along_dim.html)",
    "[torch.index_select](https://docs.pytorch.org/docs/stable/generated/torch.index_select.html)",
]


# GL000 is no rule of the catalogue: the linter's notice that it could not check some code, and why
GL000_PAGE = """# GL000 not-checked

Severity: **error**. Reported by the linter, never hidden, and never silenced by `--select` or `--ignore`.

## What it says

Some code was not checked: the file cannot be read or decoded, code the analysis reads cannot be parsed by the
Python the linter runs on (a syntax error, or syntax of a newer Python, such as the nested f-strings of 3.12), or
the analysis itself failed on one function (reported at that function; the rest of the file is still checked).

## Why it matters

Mistakes in code that was not checked are not reported: a clean run would say less than it seems to. The exit
status is nonzero, so CI notices.

## What to do

Fix the syntax error, or run the linter on the Python the code is written for. Code that cannot hold a
gather/scatter site is not parsed (that is most of the linter's speed), so a syntax error there is reported only
with `--check-syntax`. An internal error is a bug of the linter: please report it with the function it names.
"""


def markdown(text: str) -> str:
    """Rule docstrings use reStructuredText literals (``x``); the pages and SARIF help are Markdown (`x`)."""
    return re.sub(r"``(.+?)``", r"`\1`", text, flags=re.DOTALL)


def summary(rule) -> str:
    first = markdown(rule.__doc__.strip().splitlines()[0])
    text = first.split(":", 1)[1].strip() if ":" in first else first
    return text.rstrip(".")


def render(rule) -> str:
    doc = markdown(textwrap.dedent("\n".join(rule.__doc__.strip().splitlines()[1:])).strip())
    if not is_static(rule):
        where = "Reported by the runtime mode: it needs values only known when the code runs."
    elif not is_runtime(rule):
        where = "Reported by the linter: it follows the gathered result to where it is used, which the runtime mode does not see."
    else:
        where = "Reported by the linter and by the runtime mode."
    parts: List[str] = [
        f"# {rule.CODE} {rule.NAME}",
        "",
        f"Severity: **{rule.SEVERITY}** ({'torch raises' if rule.SEVERITY == 'error' else 'silently wrong'}). {where}",
        "",
        "## What it does",
        "",
        summary(rule)[0].upper() + summary(rule)[1:] + ".",
        "",
        "## Why is this bad",
        "",
        doc,
    ]
    for example in rule.EXAMPLES:
        title = f" ({example.title})" if example.title else ""
        parts += ["", f"## Example{title}", "", "```python", example.bad.strip(), "```",
                  "", "Use instead:", "", "```python", example.good.strip(), "```"]
    parts += ["", "## Fix safety", "", " ".join(filter(None, (_FIX_SAFETY[rule.FIX], getattr(rule, "FIX_NOTE", "")))), "", "## Options", "",
              "Select or ignore it like any code: `--select`/`--ignore`, `[tool.gather-lint]`, `# noqa: "
              f"{rule.CODE}`.", "", "## References", ""]
    parts += [f"- {ref}" for ref in _REFERENCES]
    return "\n".join(parts) + "\n"


def table() -> str:
    rows = [f"{'code':6} {'name':24} {'severity':8} {'fix':7} {'where':8} summary"]
    for rule in ALL_RULES:
        rows.append(f"{rule.CODE:6} {rule.NAME:24} {rule.SEVERITY:8} {rule.FIX or '-':7} "
                    f"{_where(rule):8} {summary(rule)}")
    return "\n".join(rows) + "\n"


def _where(rule) -> str:
    if not is_static(rule):
        return "runtime"
    return "both" if is_runtime(rule) else "static"


def lookup(code: str):
    return RULES_BY_CODE.get(code.upper())


def write_pages(directory: str = "rules") -> None:
    """Regenerate the pages: `python -m gather_lint.rule_docs`."""
    import os

    os.makedirs(directory, exist_ok=True)
    for rule in ALL_RULES:
        with open(os.path.join(directory, f"{rule.CODE}.md"), "w", encoding="utf-8") as handle:
            handle.write(render(rule))


if __name__ == "__main__":
    write_pages()
