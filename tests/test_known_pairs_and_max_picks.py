"""GL013 at pair writes whose positions the code knows: a row of a written edge list keeps its entries
(`edge[0]`), so whether a pair repeats is decided entry by entry; and `_, best = x.max(0)` picks one
position per column as `x.argmax(0)` does, so a write at those picks is read the same way. Each claim runs
in torch: the reported write loses an entry, the silent ones equal a one-by-one loop."""
import textwrap

import pytest

from .conftest import lint
from .snippets import run_snippet

DISTINCT_PAIRS = """
import torch

def dense_relevance(edge_label_index, edge_label_weight, num_src, num_dst):
    rel = torch.zeros(num_src, num_dst)
    rel[edge_label_index[0], edge_label_index[1]] = edge_label_weight
    return rel

edge_label_index = torch.tensor([
    [0, 0, 1, 2, 2, 2, 3],
    [4, 9, 17, 1, 5, 8, 2],
])
weights = torch.tensor([3.0, 1.0, 2.0, 5.0, 4.0, 4.0, 2.0])
out = dense_relevance(edge_label_index, weights, 4, 30)
expected = torch.zeros(4, 30)
for k in range(7):
    expected[int(edge_label_index[0, k]), int(edge_label_index[1, k])] = float(weights[k])
assert torch.equal(out, expected)
"""

REPEATED_PAIR = """
import torch

def dense_relevance(edge_label_index, edge_label_weight, num_src, num_dst):
    rel = torch.zeros(num_src, num_dst)
    rel[edge_label_index[0], edge_label_index[1]] = edge_label_weight
    return rel

edge_label_index = torch.tensor([
    [0, 0, 1, 2],
    [4, 4, 17, 1],
])
weights = torch.tensor([3.0, 1.0, 2.0, 5.0])
out = dense_relevance(edge_label_index, weights, 4, 30)
summed = float(weights[0] + weights[1])
assert float(out[0, 4]) != summed  # one of the two writes to (0, 4) is gone
"""

BEST_ANCHOR = """
import torch

def build_targets(ious, b, gj, gi, gx, n_images, n_anchors, grid):
    tx = torch.zeros(n_images, n_anchors, grid, grid)
    {pick}
    tx[b, best_n, gj, gi] = gx - gx.floor()
    return tx, best_n

ious = torch.tensor([[0.9, 0.2, 0.1], [0.3, 0.8, 0.2], [0.1, 0.4, 0.7]])
b = torch.tensor([0, 0, 1])
gj = torch.tensor([2, 2, 0])
gi = torch.tensor([1, 1, 3])
gx = torch.tensor([1.25, 1.5, 3.75])
tx, best_n = build_targets(ious, b, gj, gi, gx, 2, 3, 4)
expected = torch.zeros(2, 3, 4, 4)
for k in range(3):
    expected[int(b[k]), int(best_n[k]), int(gj[k]), int(gi[k])] = float(gx[k] - int(gx[k]))
assert torch.equal(tx, expected)
"""


def _gl013_lines(code):
    return [v.line for v in lint(textwrap.dedent(code)) if v.code == "GL013"]


def test_pairs_of_a_written_edge_list_that_are_all_distinct_stay_silent():
    assert _gl013_lines(DISTINCT_PAIRS) == []
    run_snippet(DISTINCT_PAIRS)


def test_a_pair_written_twice_in_the_edge_list_is_reported():
    assert _gl013_lines(REPEATED_PAIR) == [6]
    run_snippet(REPEATED_PAIR)


@pytest.mark.parametrize("pick", ["_, best_n = ious.max(0)", "best_n = ious.argmax(0)",
                                  "best_n = torch.max(ious, dim=0).indices"])
def test_best_anchor_picks_read_alike_in_every_spelling(pick):
    code = BEST_ANCHOR.replace("{pick}", pick)
    assert _gl013_lines(code) == []
    run_snippet(code)
