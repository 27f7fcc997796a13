"""`x[I] = c - x[I]` with repeats in I: every write to a repeated position carries the same value, computed from
the same read before any write, so the one write torch keeps is what was meant (each pixel drawn is inverted
once). An update that builds on the old value (`x[I] + 1`, `x[I] * w`) is meant once per occurrence, and the
repeats lose all but one. Each claim runs in torch."""
import pytest

from .conftest import lint
from .snippets import run_snippet

WRITE = """
import torch

def augment(img, threshold):
    n = img.shape[0]
    indices = torch.randint(0, n, (int(threshold * n),))
    img[indices, :] = UPDATE
    return img, indices

if __name__ == "__main__":
    torch.manual_seed(0)
    before = torch.rand(50, 3) * 255
    OUT, IDX = augment(before.clone(), 0.8)
    BEFORE = before
"""


@pytest.mark.parametrize("update", ["255.0 - img[indices, :]", "-img[indices, :]", "1.0 - img[indices, :] / 255"])
def test_a_reflection_of_the_old_value_is_not_reported(update, torch):
    program = WRITE.replace("UPDATE", update)
    assert lint(program) == []
    scope = run_snippet(program)
    once = scope["BEFORE"].clone()
    unique = scope["IDX"].unique()
    assert len(unique) < len(scope["IDX"])  # the draw repeats positions
    once[unique, :] = eval(update.replace("img[indices, :]", "once[unique, :]"), {"once": once, "unique": unique})
    assert torch.allclose(scope["OUT"], once)  # the same as writing each drawn position once


@pytest.mark.parametrize("update", ["img[indices, :] + 1.0", "1.0 + img[indices, :]", "img[indices, :] * 0.5"])
def test_an_update_building_on_the_old_value_is_reported(update, torch):
    program = WRITE.replace("UPDATE", update)
    assert [f.code for f in lint(program)] == ["GL013"]
    scope = run_snippet(program)
    idx = scope["IDX"]
    hits = torch.bincount(idx, minlength=50)
    twice = int((hits > 1).nonzero()[0])
    # a position drawn twice got the update once
    step = eval(update.replace("img[indices, :]", "x"), {"x": scope["BEFORE"][twice]})
    assert torch.allclose(scope["OUT"][twice], step)


SHIFTED_ELEMENT = """
import torch

def segm_targets(segm_pred, gt_masks, gt_labels):
    targets = torch.zeros_like(segm_pred)
    for obj_idx in range(gt_masks.size(0)):
        targets[gt_labels[obj_idx] - 1] = torch.max(targets[gt_labels[obj_idx] - 1], gt_masks[obj_idx])
    return targets

if __name__ == "__main__":
    torch.manual_seed(0)
    masks = (torch.rand(3, 4, 4) > 0.5).float()
    labels = torch.tensor([1, 3, 1])
    OUT = segm_targets(torch.randn(4, 4, 4), masks, labels)
    REF = torch.zeros(4, 4, 4)
    for k in range(3):
        REF[labels[k] - 1] = torch.maximum(REF[labels[k] - 1], masks[k])
"""


def test_one_element_shifted_by_a_number_is_one_position(torch):
    """`targets[gt_labels[obj_idx] - 1]` with an int obj_idx (a 1-based label of one object, yolact's mask
    targets): one position per statement, nothing to repeat."""
    assert lint(SHIFTED_ELEMENT) == []
    scope = run_snippet(SHIFTED_ELEMENT)
    assert torch.equal(scope["OUT"], scope["REF"])
