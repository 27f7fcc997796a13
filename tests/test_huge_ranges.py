"""A loop over `range(1, STEP_NUM // N_ENVS + 1)` with STEP_NUM = 10**12 and `torch.arange(10**12)` are counted before
anything is listed: the analysis runs each round in turn only for a handful of rounds, and lists an arange's entries
only for a handful of ids, so a training script's step count costs nothing (listing its rounds would take more
memory than the machine has). The gather inside the loop is still checked, and torch, run on a small count, shows
what it reports: only column 0 of the Q-values is read."""
import textwrap

import pytest

from .conftest import lint
from .snippets import run_snippet

torch = pytest.importorskip("torch")

TRAINING = """
import torch

STEP_NUM = {steps}
N_ENVS = 16

def run(q, actions):
    total = 0.0
    for step in range(1, STEP_NUM // N_ENVS + 1):
        total += q.gather(0, actions).sum()
    ids = torch.arange(STEP_NUM)
    return total, ids

if __name__ == "__main__":
    q = torch.randn(4, 3)
    total, ids = run(q, torch.zeros(4, 1, dtype=torch.long))
"""


def test_a_huge_step_count_is_not_listed_and_the_gather_is_still_checked():
    found = [(v.code, v.line) for v in lint(textwrap.dedent(TRAINING.replace("{steps}", "10 ** 12")))]
    assert found == [("GL005", 10)]
    scope = run_snippet(TRAINING.replace("{steps}", "32"))
    assert torch.allclose(scope["total"], 2 * 4 * scope["q"][0, 0])  # two rounds of four reads of q[0, 0]
