"""GL011 quotes what torch says on CPU for padding that reaches a family op: the quoted words are checked here
against the error torch raises for the same call."""
import re

import pytest

from .conftest import lint
from .snippets import run_snippet

PROGRAM = """
import torch

def run():
    ids = torch.randint(0, 5, (4,))
    ids = torch.cat([ids, ids.new_full((2,), -1)])
    table = torch.randn(3, 5)
    return CALL
"""

CALLS = [
    "table.gather(1, ids.view(1, -1))",
    "table.scatter_(1, ids.view(1, -1), 1.0)",
    "table.scatter_add_(1, ids.view(1, -1), torch.ones(1, 6))",
    "table.index_select(1, ids)",
    "table.t().index_select(0, ids)",
    "table.index_add_(1, ids, torch.ones(3, 6))",
    "table.index_copy_(1, ids, torch.ones(3, 6))",
]


@pytest.mark.parametrize("call", CALLS)
def test_the_quoted_words_are_torchs(call, torch):
    program = PROGRAM.replace("CALL", call)
    found = [f for f in lint(program) if f.code == "GL011"]
    assert len(found) == 1, [f.message for f in lint(program)]
    quoted = re.search(r"torch raises '([^']+)'", found[0].message).group(1)
    scope = run_snippet(program)
    with pytest.raises((RuntimeError, IndexError)) as raised:
        scope["run"]()
    assert quoted in str(raised.value), (quoted, str(raised.value))
