"""GL032: a write of the number a fresh zeros/ones buffer holds everywhere changes nothing. Each flagged form
runs in torch and leaves the buffer equal to its fill; each near miss changes it."""
import pytest

from .conftest import codes
from .snippets import run_snippet

torch = pytest.importorskip("torch")

LABEL_MASK = """
import torch

def decoupled_label_loss(logits, labels, loss_mask=None):
    batch_size, num_classes = logits.shape
    label_mask = torch.FILL(batch_size, num_classes, device=logits.device)
    WRITE
    if loss_mask is not None:
        label_mask = label_mask * loss_mask
    return (logits * label_mask).sum(), label_mask

if __name__ == "__main__":
    loss, label_mask = decoupled_label_loss(torch.randn(3, 4), torch.tensor([2, 0, 1]))
"""

FLAGGED = [
    ("ones", "label_mask.scatter_(1, labels.unsqueeze(1), 1.0)"),
    ("ones", "label_mask = label_mask.scatter(1, labels[:, None], 1)"),
    ("zeros", "label_mask.index_fill_(1, labels, 0)"),
    ("ones", "label_mask.scatter_(dim=1, index=labels.unsqueeze(1), value=True)"),
]


@pytest.mark.parametrize("fill, write", FLAGGED)
def test_a_write_of_the_fill_is_reported_and_changes_nothing(fill, write):
    code = LABEL_MASK.replace("FILL", fill).replace("WRITE", write)
    assert codes(code) == ["GL032"]
    mask = run_snippet(code)["label_mask"]
    assert torch.equal(mask, torch.full_like(mask, 1.0 if fill == "ones" else 0.0))


NEAR_MISSES = [
    ("zeros", "label_mask.scatter_(1, labels.unsqueeze(1), 1.0)"),  # the one-hot meant
    ("ones", "label_mask.index_fill_(1, labels, 0)"),  # positions zeroed in ones
    ("ones", "label_mask[0] = 0\n    label_mask.scatter_(1, labels.unsqueeze(1), 1.0)"),  # written before
    ("ones", "label_mask.scatter_(1, labels.unsqueeze(1), 1.0, reduce='add')"),  # adds
]


def test_a_plain_store_of_the_fill_is_left_alone():
    # transformers' VITS spline: `log_abs_det[outside_interval_mask] = 0.0` into zeros says what the region keeps
    code = LABEL_MASK.replace("FILL", "zeros").replace("WRITE", "label_mask[torch.arange(batch_size), labels] = 0.0")
    assert codes(code) == []
    assert not run_snippet(code)["label_mask"].any()


@pytest.mark.parametrize("source", [
    "self.mask",  # state kept across calls: written elsewhere
    "base.view(-1)",  # a view of a buffer written through its other name
])
def test_a_buffer_not_made_here_is_left_alone(source):
    code = """
import torch

class Marks:
    def __init__(self, n):
        self.mask = torch.zeros(n)

    def mark(self, ids):
        base = torch.zeros(2, 3)
        base[0].scatter_(0, ids, 1.0)
        buf = SOURCE
        buf.index_fill_(0, ids, 0)
        return buf
""".replace("SOURCE", source)
    assert codes(code) == []


@pytest.mark.parametrize("fill, write", NEAR_MISSES)
def test_a_write_that_changes_the_buffer_is_left_alone(fill, write):
    code = LABEL_MASK.replace("FILL", fill).replace("WRITE", write)
    assert "GL032" not in codes(code)
    mask = run_snippet(code)["label_mask"]
    assert not torch.equal(mask, torch.full_like(mask, 1.0 if fill == "ones" else 0.0))


def test_a_loop_that_writes_another_value_elsewhere_is_left_alone():
    code = """
import torch

def marks(rows, n):
    seen = torch.zeros(n)
    for r in rows:
        seen.index_fill_(0, r, 0)
        seen[r[:1]] = 1.0
    return seen

if __name__ == "__main__":
    seen = marks([torch.tensor([1, 2]), torch.tensor([2, 3])], 5)
"""
    assert "GL032" not in codes(code)
    assert run_snippet(code)["seen"].tolist() == [0.0, 1.0, 1.0, 0.0, 0.0]  # the first run's 1 at 1 stays
