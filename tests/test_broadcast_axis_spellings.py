"""GL019 whatever spelling made the size-1 dim that expand/repeat spreads: unsqueeze(k), x[:, None],
x[..., None], view(-1, 1), reshape(B, 1); the shape, not the spelling, decides. Torch is the oracle:
every position along the gather dim reads the same index, so the result is constant along it."""
import textwrap

import pytest

from .conftest import lint

PROGRAM = """
import torch

def pick(scores, idx):
    # scores: [B, N]  idx: [B]
    return scores.gather(1, {index})

if __name__ == "__main__":
    torch.manual_seed(0)
    scores, idx = torch.randn(3, 5), torch.tensor([4, 0, 2])
    OUT = pick(scores, idx)
"""

SPELLINGS = ["idx.unsqueeze(1).expand(-1, 5)", "idx.unsqueeze(-1).expand(-1, 5)", "idx[:, None].expand(-1, 5)",
             "idx[..., None].expand(3, 5)", "idx.view(-1, 1).expand(-1, 5)", "idx.reshape(3, 1).repeat(1, 5)",
             "idx.view(-1, 1).expand_as(scores)"]


def _run(program: str):
    scope: dict = {"__name__": "__main__"}
    exec(compile(program, "<program>", "exec"), scope)
    return scope["OUT"]


@pytest.mark.parametrize("index", SPELLINGS)
def test_every_spelling_of_the_spread_size_one_dim_is_gl019(index, torch):
    program = textwrap.dedent(PROGRAM).replace("{index}", index)
    assert [f.code for f in lint(program)] == ["GL019"], index
    out = _run(program)
    assert bool((out == out[:, :1]).all())  # torch: one value repeated along the gather dim


@pytest.mark.parametrize("index", [
    "idx[:, None]",  # no broadcast: one pick per row
    "idx.view(-1, 1).expand(-1, 1)",  # nothing spread
    "torch.arange(5).expand(3, 5)",  # spread along dim 0, gathered along dim 1: a real permutation per row
])
def test_no_spread_along_the_gather_dim_stays_silent(index, torch):
    program = textwrap.dedent(PROGRAM).replace("{index}", index)
    assert [f.code for f in lint(program)] == []
    _run(program)
