"""GL028: `F.one_hot(labels)` without num_classes is `labels.max() + 1` wide (static/inferred_widths.py). Meeting
a tensor of the model's classes elementwise, it agrees with it only in a batch that holds the last class.
Each claim runs in torch."""
import pytest

from .conftest import codes, lint
from .snippets import call_run as run

torch = pytest.importorskip("torch")

SMOOTHED = """
import torch
import torch.nn.functional as F

class SmoothedLoss(torch.nn.Module):
    def __init__(self, num_classes, eps=0.1):
        super().__init__()
        self.num_classes, self.eps = num_classes, eps

    def targets(self, labels):
        onehot = ONE_HOT.float()
        return onehot * (1.0 - self.eps) + self.eps / self.num_classes

    def forward(self, logits, labels):
        logp = F.log_softmax(logits, dim=-1)
        return -(MEET).sum(dim=-1).mean()

def run():
    torch.manual_seed(0)
    logits = torch.randn(6, 5)
    labels = torch.tensor(LABELS)
    return SmoothedLoss(5)(logits, labels)

if __name__ == "__main__":
    print(run())
"""


def _program(one_hot="F.one_hot(labels)", meet="self.targets(labels) * logp", labels="[0, 2, 1, 3, 0, 1]"):
    return SMOOTHED.replace("ONE_HOT", one_hot).replace("MEET", meet).replace("LABELS", labels)


@pytest.mark.parametrize("one_hot, meet", [
    ("F.one_hot(labels)", "self.targets(labels) * logp"),
    ("F.one_hot(labels, -1)", "self.targets(labels) * logp"),
    ("torch.nn.functional.one_hot(labels)", "logp * self.targets(labels)"),
    ("F.one_hot(labels)", "(self.targets(labels) - logp.exp()) * logp"),
])
def test_a_batch_without_the_last_class_raises_on_the_sizes(one_hot, meet):
    code = _program(one_hot, meet)
    found = lint(code)
    assert [f.code for f in found] == ["GL028"] and found[0].line == 11  # at the one_hot call
    with pytest.raises(RuntimeError, match="must match the size"):
        run(code)  # the labels stop at 3: four columns against five


def test_a_batch_of_class_0_broadcasts_one_column_silently():
    code = _program(labels="[0, 0, 0, 0, 0, 0]")
    assert codes(code) == ["GL028"]
    got = run(code)
    torch.manual_seed(0)
    logits = torch.randn(6, 5)
    right = torch.nn.functional.cross_entropy(logits, torch.zeros(6, dtype=torch.long), label_smoothing=0.1)
    assert not torch.allclose(got, right)  # every class got the class-0 weight


@pytest.mark.parametrize("one_hot", ["F.one_hot(labels, self.num_classes)", "F.one_hot(labels, num_classes=self.num_classes)"])
def test_a_given_number_of_classes_is_silent(one_hot):
    code = _program(one_hot)
    assert codes(code) == []
    assert run(code).shape == ()


def test_labels_known_to_hold_the_last_class_are_silent():
    code = _program(labels="[0, 4, 1, 3, 2, 1]")
    assert codes(code) == []
    assert run(code).shape == ()


def test_a_one_hot_meeting_no_tensor_of_classes_is_silent():
    # summed over its own columns: whatever its width, each row adds up to 1
    code = _program(meet="self.targets(labels)")
    assert codes(code) == []
    assert run(code).shape == ()
