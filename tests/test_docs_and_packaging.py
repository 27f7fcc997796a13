"""The README, rule pages, hook definition and packaging say what the tool does, in forms that work."""
import re
from pathlib import Path

try:  # Python 3.11+
    import tomllib
except ModuleNotFoundError:  # pragma: no cover
    import tomli as tomllib

from gather_lint.rule_docs import render
from gather_lint.rules import ALL_RULES

ROOT = Path(__file__).resolve().parent.parent


def test_rule_pages_are_markdown_without_restructuredtext_literals():
    for rule in ALL_RULES:
        page = render(rule)
        without_fences = page.replace("```", "")
        assert "``" not in without_fences, rule.CODE
    assert "`index.dim() == input.dim()`" in render(ALL_RULES[0])


def test_test_extra_has_numpy_so_torch_runs_do_not_warn():
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    names = [re.split(r"[<>=!~; \[]", req, 1)[0] for req in project["optional-dependencies"]["test"]]
    assert "numpy" in names
