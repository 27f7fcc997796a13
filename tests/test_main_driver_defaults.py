"""A script's `main()`, called by the `__main__` guard, is a driver as the guard's body is: a function it
calls with no arguments runs with its own defaults, so the findings under those values are the same
whether the driver code sits in the guard or in `main()`. Torch raises on both."""
import textwrap

import pytest

from .conftest import lint
from .snippets import run_snippet

PROGRAM = """
import torch


def scatter_rows(hidden, positions, rows):
    return hidden.index_copy(0, positions, rows)


def run_request(num_crops=3, tokens_per_crop=4, hidden_size=8):
    hidden = torch.randn(20, hidden_size)
    rows = torch.randn(num_crops * tokens_per_crop, hidden_size)
    positions = torch.arange(2, 2 + num_crops * (tokens_per_crop + 1))
    return scatter_rows(hidden, positions, rows)

{DRIVER}
"""

GUARD = 'if __name__ == "__main__":\n    merged = run_request()\n'
MAIN = 'def main():\n    merged = run_request()\n\n\nif __name__ == "__main__":\n    main()\n'


@pytest.mark.parametrize("driver", [GUARD, MAIN], ids=["guard", "main"])
def test_a_driver_in_main_gives_its_calls_their_defaults(driver):
    code = PROGRAM.replace("{DRIVER}", driver)
    assert (6, "GL003") in [(f.line, f.code) for f in lint(textwrap.dedent(code))]
    with pytest.raises(IndexError, match="Number of indices"):
        run_snippet(code)
