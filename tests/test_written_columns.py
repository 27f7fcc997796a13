"""A column of a table written out in the code (`[[class_id, x1, y1, x2, y2], ...]`) used as class ids:
its largest int is among the ids, so class ids numbered from 1 reach one past `num_classes`.
Reported at the class-id consumers (cross-entropy targets, an embedding table, F.one_hot); each
claim is run in torch, and the corrected spellings stay silent and run."""
import textwrap

import pytest

from .conftest import lint

ANNOTATED_BOXES = """
import torch
import torch.nn as nn
import torch.nn.functional as F


def class_loss(logits, labels):
    return F.cross_entropy(logits, labels)  # expect


class LabelEmbedder(nn.Module):
    def __init__(self, n_classes, width):
        super().__init__()
        self.table = nn.Embedding(n_classes, width)

    def forward(self, labels):
        return self.table(labels)  # expect


def soft_targets(labels, n):
    return F.one_hot(labels.long(), num_classes=n).float() * 0.9 + 0.1 / n  # expect


def main():
    # (class id, x1, y1, x2, y2); the annotation tool numbers the classes from 1
    boxes = torch.tensor([[2, 4.0, 4.0, 30.0, 30.0], [1, 0.0, 0.0, 10.0, 12.0], [3, 5.0, 6.0, 9.0, 9.0]])
    head = nn.Linear(8, 3)
    labels = boxes[:, 0].long()
    loss = class_loss(head(torch.randn(len(labels), 8)), labels)
    embedded = LabelEmbedder(3, 4)(labels)
    targets = soft_targets(boxes[[0, 1, 2], 0], 3)
    return loss, embedded, targets


if __name__ == "__main__":
    main()
"""


def findings(code: str):
    return [(f.line, f.code) for f in lint(code)]


def expected(code: str):
    return [(n, "GL011") for n, text in enumerate(code.splitlines(), 1) if text.endswith("# expect")]


_USES = ("class_loss(", "LabelEmbedder(", "soft_targets(")


def outcomes(code: str):
    """What each use of the labels in `main` does in torch: None when it runs, else the error's text.
    `main` is run once per use, with the other uses' lines left out."""
    scope = {"__name__": "snippet"}
    exec(textwrap.dedent(code), scope)  # noqa: S102 - the snippet under test
    main = code[code.index("def main():"):code.index("if __name__")].replace("    return loss, embedded, targets", "")
    seen = []
    for use in _USES:
        others = [u for u in _USES if u != use]
        alone = "\n".join(line for line in main.splitlines() if not any(u in line for u in others))
        try:
            exec(alone + "\nmain()", dict(scope))  # noqa: S102
            seen.append(None)
        except (IndexError, RuntimeError) as error:
            seen.append(str(error))
    return seen


def test_one_based_class_ids_from_a_written_table_are_reported_where_they_are_used(torch):
    assert findings(ANNOTATED_BOXES) == expected(ANNOTATED_BOXES)
    assert all("3 among them (column 0)" in f.message for f in lint(ANNOTATED_BOXES))
    errors = outcomes(ANNOTATED_BOXES)
    assert "Target 3 is out of bounds" in errors[0]
    assert "index out of range in self" in errors[1]
    assert "Class values must be smaller than num_classes" in errors[2]


@pytest.mark.parametrize("old, new", [
    # numbered from 0 before use
    ("labels = boxes[:, 0].long()", "labels = boxes[:, 0].long() - 1"),
    # rows whose ids all fit
    ("labels = boxes[:, 0].long()", "labels = boxes[[0, 1], 0].long()"),
    # a clamp to the last class
    ("labels = boxes[:, 0].long()", "labels = boxes[:, 0].long().clamp(max=2)"),
])
def test_ids_that_fit_the_classes_stay_silent_and_run(old, new, torch):
    program = ANNOTATED_BOXES.replace(old, new).replace("boxes[[0, 1, 2], 0]", "boxes[[0, 1], 0]")
    assert findings(program) == []
    assert outcomes(program) == [None, None, None]


def test_rows_picked_by_unknown_positions_stay_silent():
    program = ANNOTATED_BOXES.replace("boxes[:, 0].long()", "boxes[torch.randint(0, 3, (3,)), 0].long()") \
        .replace("boxes[[0, 1, 2], 0]", "boxes[torch.randint(0, 3, (3,)), 0]")
    assert findings(program) == []  # which rows the draw picks is not known: id 3 may not be among them
