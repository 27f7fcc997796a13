"""The imports a split file's module lifts to its top (analyzer._imports_of): every import statement at any
depth, parsed together, each at line 1 as if parsed alone; prose in a docstring that starts with `from` is
not one, and a statement that does not parse leaves the others."""
from gather_lint.static.analyzer import _imports_of

LINES = ["import torch\n", "from torch import (\n", "    nn,\n", "    functional as F)\n", '"""\n',
         "from the logits we take the last row\n", '"""\n', "def f():\n", "    import numpy as np\n",
         "    from . import helpers\n"]


def _seen(nodes):
    return [(type(n).__name__, n.lineno, [a.asname or a.name for a in n.names]) for n in nodes]


def test_every_import_at_any_depth_at_line_one():
    assert _seen(_imports_of("".join(LINES), "m.py")) == [
        ("Import", 1, ["torch"]), ("ImportFrom", 1, ["nn", "F"]), ("Import", 1, ["np"]), ("ImportFrom", 1, ["helpers"])]


def test_a_statement_that_does_not_parse_leaves_the_others():
    lines = LINES + ["from broken import (\n"]  # never closed: the joined parse fails, each is parsed alone
    assert [n[2] for n in _seen(_imports_of("".join(lines), "m.py"))] == [["torch"], ["nn", "F"], ["np"], ["helpers"]]
