"""GL037: `view`/`reshape` asking for a shape whose element count is not the tensor's. Reported in the forms real
code uses (method and torch function, sizes as arguments or a tuple, one -1, sizes from a driver or constructors);
torch raises on each. Sizes that hold the elements, or sizes the analysis does not know as numbers, stay silent and
run."""
import textwrap

import pytest

from .conftest import lint
from .snippets import reported_and_raised, run_snippet, silent_and_run

torch = pytest.importorskip("torch")

PROGRAM = """
import torch

def regroup(points, batch, channels):
    return {call}

if __name__ == "__main__":
    out = regroup(torch.rand(2, 3, 10), 2, 3)
"""

BAD = ["points.view(batch, -1, channels * 4)", "points.reshape((batch, 7, channels))",
       "torch.reshape(points, (batch * channels, 3))", "points.reshape(1, 1, 3)"]
GOOD = ["points.view(batch, -1, channels)", "points.reshape((batch, 10, channels))",
        "torch.reshape(points, (batch * channels, 10))", "points.reshape(-1)"]


@pytest.mark.parametrize("call", BAD)
def test_a_shape_that_cannot_hold_the_elements_is_reported_and_torch_raises(call):
    code = textwrap.dedent(PROGRAM.replace("{call}", call))
    reported_and_raised(lint(code), code, ["GL037"], RuntimeError, "is invalid for input of size 60")


@pytest.mark.parametrize("call", GOOD)
def test_a_shape_that_holds_the_elements_is_silent_and_runs(call):
    code = textwrap.dedent(PROGRAM.replace("{call}", call))
    silent_and_run(lint(code), code)


def test_sizes_known_only_by_name_stay_silent():
    code = """
    import torch

    def regroup(points, heads):
        # points: [B, C, N]
        return points.view(points.shape[0], heads, -1)
    """
    assert lint(code) == []


def test_the_message_names_the_shape_and_the_count_as_torch_does():
    code = textwrap.dedent(PROGRAM.replace("{call}", BAD[3]))
    (finding,) = lint(code)
    assert "holds 60 elements" in finding.message and "shape '[1, 1, 3]' is invalid for input of size 60" in finding.message
    with pytest.raises(RuntimeError, match=r"shape '\[1, 1, 3\]' is invalid for input of size 60"):
        run_snippet(code)
