"""Two refinements, each checked in torch:

* `x.masked_fill(x == PAD, 0)` (or `~(x != PAD)`) with PAD a module constant replaces every entry holding the fill
  PAD: the fill is no longer among x's values, and an index made of it is in range; so does the write
  `x[x == c] = v` of a value c x is known to hold (255 void labels written over before a one-hot);
* `coord[cell, slot] = boxes` with `slot` each row's own argmax: the pick gives rows sharing a cell their own
  slots, so the pair is no evidence of a collision (one component, `coord[cell] = ...`, still is).
"""
import pytest

from .conftest import codes
from .snippets import call_run as run

PENALTY = """
import torch

PAD_ID = 1_000_000_000


def penalise(logits, histories, width):
    history = torch.full((len(histories), width), PAD_ID, dtype=torch.long)
    for i, h in enumerate(histories):
        history[i, :len(h)] = torch.tensor(h)
    valid = history != PAD_ID
    return logits.scatter_add(-1, history.masked_fill(~valid, 0), -valid.to(logits.dtype))


def run():
    return penalise(torch.zeros(2, 64), [[5, 17, 17], [8]], 4)


if __name__ == "__main__":
    run()
"""


def test_a_fill_replaced_where_it_stands_is_gone(torch):
    assert codes(PENALTY) == []
    assert run(PENALTY)[0, 17].item() == -2.0
    unmasked = PENALTY.replace("history.masked_fill(~valid, 0)", "history")
    assert codes(unmasked) == ["GL011"]
    with pytest.raises(RuntimeError, match="out of bounds"):
        run(unmasked)


TARGETS = """
import torch

GRID = 7
ANCHORS = torch.tensor([[0.10, 0.30], [0.30, 0.10]])


def best_anchor(wh):
    inter = torch.min(wh[:, None, :], ANCHORS[None]).prod(-1)
    union = wh.prod(-1)[:, None] + ANCHORS.prod(-1)[None] - inter
    return (inter / union).argmax(1)


def build_targets(boxes):
    # boxes: [N, 4] (cx, cy, w, h), normalised
    coord = torch.zeros(GRID * GRID, ANCHORS.shape[0], 4)
    col = (boxes[:, 0] * GRID).long().clamp(max=GRID - 1)
    row = (boxes[:, 1] * GRID).long().clamp(max=GRID - 1)
    cell = row * GRID + col
    slot = best_anchor(boxes[:, 2:])
    coord[cell, slot] = boxes
    return coord


def run():
    boxes = torch.tensor([[0.52, 0.48, 0.08, 0.35], [0.55, 0.51, 0.33, 0.09]])
    return build_targets(boxes)


if __name__ == "__main__":
    run()
"""


def test_each_row_s_own_slot_is_no_collision(torch):
    assert codes(TARGETS) == []
    assert int((run(TARGETS).abs().sum(-1) > 0).sum()) == 2  # torch: both boxes kept, in one cell's two slots
    one_component = TARGETS.replace("coord[cell, slot] = boxes", "coord[cell] = boxes[:, None, :].expand(-1, 2, -1)")
    assert codes(one_component) == ["GL013"]
    assert int((run(one_component).abs().sum(-1) > 0).sum()) == 2  # one box written over the other, in both slots


# The subscript-write form of the same refinement: `target[target == 255] = v` writes over every void label.
VOID_LABELS = """
import torch


def one_hot(labels, classes):
    out = torch.zeros(labels.size(0), classes, labels.size(2))
    return out.scatter_(1, labels, 1)


def dice_targets(target, classes):
    WRITE
    return one_hot(target.unsqueeze(1), classes)


def run():
    target = torch.tensor([[0, 3, 1, 2], [2, 2, 0, 1]])
    target[:, 1] = 255
    return dice_targets(target, 4)
"""


@pytest.mark.parametrize("write", [
    "target[target == 255] = 0",
    "target[target == 255] = target.min()",
    "target[~(target != 255)] = 0",
    "if (target == 255).sum() > 0:\n        target[target == 255] = 0",
])
def test_void_labels_written_over_where_they_stand_are_gone(write, torch):
    program = VOID_LABELS.replace("WRITE", write)
    assert "GL011" not in codes(program)
    assert run(program).sum(dim=1).eq(1).all()  # torch: one class per pixel, every label in range


def test_void_labels_left_in_place_are_still_reported(torch):
    program = VOID_LABELS.replace("WRITE", "target[target == 254] = 0")
    assert "GL011" in codes(program)
    with pytest.raises(RuntimeError, match="index 255 is out of bounds"):
        run(program)
