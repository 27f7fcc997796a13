"""An expand or repeat records the axes it spread from size 1. A gather along an axis its *input* was spread over
reads one slice whatever the index holds, however the size-1 dim was made and the expand spelled: a window grid
expanded over the keypoints and gathered along the keypoints gives every keypoint the first window offset. An
*index* spread along the gathered axis may pick one row and repeat it on purpose (distances from a selected node to
every node), so that side stays with GL019's spelling rule. Each claim runs in torch."""
import pytest

from .conftest import lint
from .snippets import call_run as run

torch = pytest.importorskip("torch")

WINDOW = '''
import torch

def refine(confidence, window):
    # confidence: (batch, keypoints, window * window)
    batch, keypoints, _ = confidence.shape
    best = confidence.argmax(dim=-1)[..., None] // window  # (batch, keypoints, 1)
    grid = torch.stack(torch.meshgrid(torch.arange(window), torch.arange(window), indexing="ij"), -1).float()
    grid = grid.reshape(1, 1, -1, 2).expand(batch, keypoints, -1, -1)
    return torch.gather(grid, 1, best.unsqueeze(-1).expand(-1, -1, -1, 2)).squeeze(2)

def run():
    torch.manual_seed(0)
    return refine(torch.rand(2, 20, 16), 4)
'''


def test_a_grid_expanded_over_the_gathered_dim_ignores_the_index():
    found = lint(WINDOW)
    # GL005 as well: the [.., 1, 2] index reads only entry 0 of the window dim, which is also true in torch
    assert sorted((f.code, f.line) for f in found) == [("GL005", 10), ("GL019", 10)]
    assert "input `grid`" in next(f.message for f in found if f.code == "GL019")
    offsets = run(WINDOW)
    assert torch.unique(offsets.reshape(-1, 2), dim=0).shape[0] == 1  # one offset for every keypoint


@pytest.mark.parametrize("old, new", [
    ("grid.reshape(1, 1, -1, 2).expand(batch, keypoints, -1, -1)",
     "grid.reshape(1, 1, -1, 2).repeat(batch, keypoints, 1, 1)"),
    ("grid.reshape(1, 1, -1, 2).expand(batch, keypoints, -1, -1)",
     "grid.reshape(1, 1, -1, 2).expand(batch, keypoints, window * window, 2)"),
    ("    grid = grid.reshape(1, 1, -1, 2).expand(batch, keypoints, -1, -1)\n",
     "    flat = grid.reshape(1, 1, -1, 2)\n    grid = flat.expand(batch, keypoints, *flat.shape[2:])\n"),
])
def test_other_spellings_keep_the_finding(old, new):
    code = WINDOW.replace(old, new)
    assert code != WINDOW
    assert "GL019" in [f.code for f in lint(code)]
    offsets = run(code)
    assert torch.unique(offsets.reshape(-1, 2), dim=0).shape[0] == 1


def test_the_gather_along_the_window_is_left_alone():
    fixed = WINDOW.replace("torch.gather(grid, 1,", "torch.gather(grid, 2,")
    assert lint(fixed) == []
    offsets = run(fixed)
    assert torch.unique(offsets.reshape(-1, 2), dim=0).shape[0] > 1


PICKED_ROW = '''
import torch

def distances_from_selected(coords, selected):
    # coords: (batch, nodes, 2); selected: (batch, 1)
    batch, nodes, _ = coords.shape
    picked = coords.gather(1, selected.unsqueeze(-1).expand(batch, nodes, 2))
    return (picked - coords).norm(dim=-1)

def run():
    torch.manual_seed(0)
    return distances_from_selected(torch.rand(3, 7, 2), torch.tensor([[0], [4], [6]]))
'''


def test_an_index_spread_to_repeat_one_picked_row_is_left_alone():
    assert lint(PICKED_ROW) == []
    distances = run(PICKED_ROW)
    assert distances[1, 4] == 0 and (distances[1] > 0).sum() == 6  # each node's distance to the selected one
