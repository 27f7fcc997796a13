"""Rows padded in Python with a negative pad (`s + [pad] * (n - len(s))`) hold that padding, whether the pad is
written in the call, a module constant, or a parameter's default the call leaves out: a lookup wraps it."""
import pytest

from .conftest import codes
from .snippets import run_snippet

PROGRAM = """
import torch

PAD_ID = -1


def pad_streams(streams, pad_value=PAD_ID):
    longest = max(len(s) for s in streams)
    return torch.tensor([s + [pad_value] * (longest - len(s)) for s in streams])


class EventEncoder(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.table = torch.nn.Parameter(torch.arange(16.0)[:, None].repeat(1, 4))

    def forward(self, events):
        return self.table[events].sum(dim=1)


if __name__ == "__main__":
    with torch.no_grad():
        pooled = EventEncoder()(pad_streams([[3, 7, 1], [3]]))
"""


@pytest.mark.parametrize("spelling", ["pad_value=PAD_ID", "pad_value=-1"])
def test_a_negative_pad_reaches_the_lookup_and_wraps(spelling, torch):
    program = PROGRAM.replace("pad_value=PAD_ID", spelling)
    assert codes(program) == ["GL010"]
    pooled = run_snippet(program)["pooled"]
    assert pooled[1].tolist() == [33.0] * 4  # torch: row 3 plus row 15 twice (-1 wraps to the last row), not 3


def test_a_pad_the_caller_overrides_with_a_real_row_stays_silent(torch):
    program = PROGRAM.replace("pad_streams([[3, 7, 1], [3]])", "pad_streams([[3, 7, 1], [3]], pad_value=0)")
    assert codes(program) == []
    assert run_snippet(program)["pooled"][1].tolist() == [3.0] * 4  # row 0 holds zeros: padding adds nothing


def test_the_same_program_with_opaque_names_keeps_the_finding(torch):
    """`v1 = -1` at module level is a constant as `PAD_ID = -1` is: the spelling of a name decides nothing."""
    names = {"PAD_ID": "v1", "pad_streams": "f1", "streams": "v2", "pad_value": "v3", "longest": "v4", "events": "v5",
             "pooled": "v6"}
    program = PROGRAM
    for old, new in names.items():
        program = program.replace(old, new)
    assert codes(program) == ["GL010"]
    assert run_snippet(program)["v6"][1].tolist() == [33.0] * 4
