"""GL011 from intervals of float values: points kept by an inclusive range filter (`pc[:, 0] <= x_max`) or
values clamped to [0, 1] reach the far end, so scaled to cells and made integer they reach the cell count
itself, one past the grid. Each claim runs in torch: the reported programs raise on a point at the far
edge; the exclusive filters and the scales by n - 1 stay silent and count what a loop counts."""
import textwrap

import pytest

from .conftest import lint
from .snippets import run_snippet

PILLARS = """
import torch

GRID = dict(x_min=-4.0, x_max=4.0, y_min=-4.0, y_max=4.0, size=8)

def crop(pc, g):
    # pc: (N, 3) points
    keep = {keep}
    return pc[keep]

def pillar_ids(pc, g):
    cell = (g["x_max"] - g["x_min"]) / g["size"]
    xi = ((pc[:, 0] - g["x_min"]) / cell).long()
    yi = ((pc[:, 1] - g["y_min"]) / cell).long()
    return {flat}

def counts(pc, g):
    pc = crop(pc, g)
    return torch.zeros(g["size"] * g["size"]).index_add_(0, pillar_ids(pc, g), torch.ones(pc.size(0)))

points = torch.tensor([[0.5, -3.5, 0.0], [4.0, 1.2, 0.1], [-1.0, 4.0, 0.2], [2.5, 2.5, 0.0]])
counts_out = counts(points, GRID)
"""

INCLUSIVE = ('(pc[:, 0] >= g["x_min"]) & (pc[:, 0] <= g["x_max"]) & (pc[:, 1] >= g["y_min"]) '
             '& (pc[:, 1] <= g["y_max"])')
FLIPPED = ('(g["x_min"] <= pc[:, 0]) & (g["x_max"] >= pc[:, 0]) & (pc[:, 1] >= g["y_min"]) '
           '& (pc[:, 1] <= g["y_max"])')
EXCLUSIVE = ('(pc[:, 0] >= g["x_min"]) & (pc[:, 0] < g["x_max"]) & (pc[:, 1] >= g["y_min"]) '
             '& (pc[:, 1] < g["y_max"])')
FLAT = 'xi * g["size"] + yi'


def _gl011_lines(code):
    return [v.line for v in lint(textwrap.dedent(code)) if v.code == "GL011"]


@pytest.mark.parametrize("keep", [INCLUSIVE, FLIPPED])
def test_points_on_the_far_edge_of_an_inclusive_filter_are_reported(keep):
    code = PILLARS.replace("{keep}", keep).replace("{flat}", FLAT)
    assert _gl011_lines(code) == [19]
    with pytest.raises(IndexError, match="out of range"):
        run_snippet(code)


def test_the_exclusive_filter_stays_silent():
    code = PILLARS.replace("{keep}", EXCLUSIVE).replace("{flat}", FLAT) + textwrap.dedent("""
    expected = torch.zeros(64)
    for x, y, _ in points.tolist():
        if -4.0 <= x < 4.0 and -4.0 <= y < 4.0:
            expected[int(x + 4.0) * 8 + int(y + 4.0)] += 1
    assert torch.equal(counts_out, expected)
    """)
    assert _gl011_lines(code) == []
    run_snippet(code)


def test_a_change_in_place_after_the_filter_forgets_its_bounds():
    # the points are moved inward after the crop: what the filter said no longer holds, so nothing is claimed
    code = PILLARS.replace("{keep}", INCLUSIVE).replace("{flat}", FLAT).replace(
        "    return pc[keep]", "    kept = pc[keep]\n    kept[:, :2] *= 0.99\n    return kept")
    assert _gl011_lines(code) == []
    run_snippet(code)


CLAMPED = """
import torch

def bucket(scores, table, n):
    u = scores.clamp(0.0, 1.0)
    return table.index_select(0, (u * {scale}).long())

table = torch.randn(10, 4)
scores = torch.tensor([-0.3, 0.25, 0.5, 1.7])
picked = bucket(scores, table, 10)
"""


def test_values_clamped_to_one_and_scaled_by_the_count_are_reported():
    code = CLAMPED.replace("{scale}", "n")
    assert _gl011_lines(code) == [6]
    with pytest.raises(IndexError, match="out of range"):
        run_snippet(code)


def test_values_clamped_to_one_and_scaled_by_one_less_stay_silent():
    code = CLAMPED.replace("{scale}", "(n - 1)") + textwrap.dedent("""
    expected = torch.stack([table[int(min(max(s, 0.0), 1.0) * 9)] for s in scores.tolist()])
    assert torch.equal(picked, expected)
    """)
    assert _gl011_lines(code) == []
    run_snippet(code)


def test_a_cell_count_that_is_not_whole_claims_nothing_near_the_edge():
    # 8 / 0.1 is 79.99999999999999 in Python: float32 may land on 80 or below it, so no claim is made
    code = PILLARS.replace("{keep}", INCLUSIVE).replace("{flat}", "xi").replace(
        'cell = (g["x_max"] - g["x_min"]) / g["size"]', "cell = 0.1").replace(
        'torch.zeros(g["size"] * g["size"])', "torch.zeros(81)")
    assert _gl011_lines(code) == []
    run_snippet(code)


REBOUND = """
import torch

def cells(pc):
    keep = (pc[:, 0] >= -4.0) & (pc[:, 0] <= 4.0)
    pc = pc * {scale}
    pc = pc[keep]
    xi = ((pc[:, 0] + 4.0) / 1.0).long()
    return torch.zeros(8).index_add_(0, xi, torch.ones(pc.size(0)))

counts = cells(torch.tensor([[4.0, 1.0], [-3.0, 0.0]]))
"""


def test_bounds_of_a_name_bound_again_before_the_filter_are_not_its_values():
    # the mask bounds pc before `pc = pc * 0.5`: the kept values reach 2.0, not 4.0, and every cell is in range
    code = REBOUND.replace("{scale}", "0.5")
    assert _gl011_lines(code) == []
    assert run_snippet(code)["counts"].tolist() == [0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0, 0.0]


def test_the_same_filter_of_the_values_it_bounds_is_reported():
    code = REBOUND.replace("    pc = pc * {scale}\n", "")
    assert _gl011_lines(code) == [8]
    with pytest.raises(IndexError, match="out of range"):
        run_snippet(code)
