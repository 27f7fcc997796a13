"""Padding picked per row by advanced indexing: `scores[torch.arange(n), labels]` with labels holding
-100 (an ignore label) raises when -100 is below -size, and wraps to an entry counted from the end
when it is not (-1). Each claim is run in torch."""
import textwrap

import pytest

from .conftest import lint


def findings(code: str):
    return [(f.line, f.code) for f in lint(code)]


def run(code: str):
    scope = {"__name__": "snippet"}
    exec(textwrap.dedent(code), scope)  # noqa: S102 - the snippet under test
    return scope


PICKED = """
import torch
import torch.nn.functional as F


def true_class_log_prob(scores, labels):
    log_probs = F.log_softmax(scores, dim=-1)
    rows = torch.arange(log_probs.size(0))
    return log_probs[rows, labels]


def run(valid):
    scores = torch.randn(6, 4)
    labels = torch.randint(0, 4, (6,))
    labels = torch.where(valid, labels, -100)
    return true_class_log_prob(scores, labels)
"""


def test_ignore_label_picked_per_row_raises(torch):
    assert findings(PICKED) == [(9, "GL011")]
    with pytest.raises(IndexError, match="index -100 is out of bounds for dimension 1 with size 4"):
        run(PICKED)["run"](torch.tensor([True, True, False, True, True, True]))


def test_minus_one_picked_per_row_wraps_to_the_last_class(torch):
    code = PICKED.replace("-100)", "-1)")
    assert findings(code) == [(9, "GL010")]
    scope = run(code)
    torch.manual_seed(0)
    valid = torch.tensor([True, True, False, True, True, True])
    picked = scope["run"](valid)  # no error: row 2 reads column -1
    torch.manual_seed(0)
    scores = torch.randn(6, 4)
    assert torch.equal(picked[2], log_softmax_rows(torch, scores)[2, 3])


def log_softmax_rows(torch, scores):
    return torch.nn.functional.log_softmax(scores, dim=-1)


def test_padding_dropped_before_the_pick_stays_silent(torch):
    code = PICKED.replace("""    rows = torch.arange(log_probs.size(0))
    return log_probs[rows, labels]""", """    keep = labels != -100
    log_probs, labels = log_probs[keep], labels[keep]
    rows = torch.arange(log_probs.size(0))
    return log_probs[rows, labels]""")
    assert findings(code) == []
    run(code)["run"](torch.tensor([True, True, False, True, True, True]))


def test_a_pick_without_padding_stays_silent(torch):
    code = PICKED.replace("labels = torch.where(valid, labels, -100)", "labels = torch.where(valid, labels, 0)")
    assert findings(code) == []
    run(code)["run"](torch.tensor([True, True, False, True, True, True]))


CLASS_STYLE = """
import torch
import torch.nn as nn


class PerRowPick(nn.Module):
    def __init__(self, n_classes):
        super().__init__()
        self.head = nn.Linear(8, n_classes)

    def forward(self, feats, targets):
        logits = self.head(feats)
        return -logits.log_softmax(-1)[torch.arange(len(targets)), targets].mean()


if __name__ == "__main__":
    targets = torch.randint(0, 5, (4,))
    targets[0] = -100
    print(PerRowPick(5)(torch.randn(4, 8), targets))
"""


def test_a_module_picking_an_ignore_label_written_by_its_driver(torch):
    assert findings(CLASS_STYLE) == [(13, "GL011")]
    scope = run(CLASS_STYLE)
    targets = torch.randint(0, 5, (4,))
    targets[0] = -100
    with pytest.raises(IndexError, match="index -100 is out of bounds for dimension 1 with size 5"):
        scope["PerRowPick"](5)(torch.randn(4, 8), targets)
