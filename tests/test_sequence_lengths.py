"""`len(xs)` as a size: a tracked list's item count, none for a list a method changed since it was built.
Each snippet is run in torch: a finding only where torch raises, silence where the list's length moved."""
import pytest

from .conftest import codes, lint
from .snippets import run_snippet

_BODY = """
import torch

def build(x):
    rows = {rows}
{change}
    idx = torch.zeros(len(rows), 5, dtype=torch.long)
    return x.gather(1, idx)

if __name__ == "__main__":
    build(torch.zeros(2, 5))
"""

CASES = [
    # (list literal, statements after it, whether torch raises, whether the linter must report)
    ("[0, 1, 2]", "", True, True),
    ("(7, 8, 9)", "", True, True),
    ("[0, 1, 2]", "    rows.pop()", False, False),
    ("[0, 1, 2]", "    for _ in range(2):\n        rows.pop()", False, False),
    ("[0, 1, 2]", "    rows.clear()\n    rows.extend([4])", False, False),
    ("[0, 1, 2]", "    del rows[0]", False, False),
    ("[]", "    for i in range(3):\n        rows.append(i)", True, True),  # three rounds, run in turn: three rows
    ("[0, 1, 2]", "    rows = rows[:2]", False, False),
    ("[0, 1, 2]", "    rows[1:] = []", False, False),
    ("[0, 1, 2]", "    rows.remove(0)", False, False),
    ("[0]", "    rows.insert(0, 5)\n    rows += [6]", True, False),
    ("[0, 1, 2, 3]", "    rows *= 0\n    rows.append(1)", False, False),
]


@pytest.mark.parametrize("rows,change,raises,reported", CASES)
def test_len_of_a_list_as_a_size(rows, change, raises, reported, torch):
    code = _BODY.format(rows=rows, change=change)
    try:
        run_snippet(code)
        raised = False
    except RuntimeError:
        raised = True
    assert raised == raises
    found = [f.code for f in lint(code) if f.severity == "error"]  # (a one-row index may also read one row: GL005)
    assert bool(found) == reported, found
    assert not found or raised  # an error is always a call torch rejects


def test_len_of_zip_is_not_the_number_of_zipped_lists():
    # len(zip(...)) raises TypeError in Python: no size comes from it, so no gather finding either
    code = _BODY.format(rows="zip([0, 1, 2], [3, 4, 5])", change="")
    assert codes(code) == []
