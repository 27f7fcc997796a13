"""A DataLoader's batch: every leaf of one batch shares one named batch size.

The size itself is unknown (the last batch may be smaller), but `pred - batch["y"]` of a gathered [B, 1]
column and a [B] target from the same batch is known to grow to [B, B]. GL006 is reported on the gather,
where the squeeze belongs, also when the column is handed to a helper that does the subtraction."""
import textwrap

import pytest

from .conftest import lint

PROGRAM = '''
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, Dataset


class Rows(Dataset):
    def __init__(self, features, groups, values):
        self.features, self.groups, self.values = features, groups, values

    def __len__(self):
        return len(self.values)

    def __getitem__(self, i):
        return {"x": self.features[i], "group": self.groups[i], "y": self.values[i]}


class PerGroupHead(nn.Module):
    def __init__(self, width, groups):
        super().__init__()
        self.out = nn.Linear(width, groups)

    def forward(self, x, group):
        return self.out(x).gather(1, group.unsqueeze(1)){SQUEEZE}


def weighted_error(pred, target):
    return ((pred - target) ** 2).mean()


def run(model, loader):
    total = 0.0
    for batch in loader:
        total += weighted_error(model(batch["x"], batch["group"]), batch["y"]).item()
    return total


if __name__ == "__main__":
    data = Rows(torch.randn(40, 6), torch.randint(0, 3, (40,)), torch.randn(40))
    print(run(PerGroupHead(6, 3), DataLoader(data, batch_size=8)))
'''


def _found(squeeze: str):
    return [(f.code, f.line) for f in lint(textwrap.dedent(PROGRAM.replace("{SQUEEZE}", squeeze)))]


def test_a_gathered_column_against_a_target_of_the_same_batch_is_reported_on_the_gather(torch):
    found = _found("")
    assert found == [("GL006", 24)]  # the gather in forward, not the helper or its call
    from torch.utils.data import DataLoader, TensorDataset
    x, g, y = next(iter(DataLoader(TensorDataset(torch.randn(40, 6), torch.randint(0, 3, (40,)), torch.randn(40)),
                                   batch_size=8)))
    pred = torch.randn(8, 3).gather(1, g.unsqueeze(1))
    assert (pred - y).shape == (8, 8)  # silently a [B, B] table, as the finding says


def test_the_squeezed_column_is_silent():
    assert _found(".squeeze(1)") == []


@pytest.mark.parametrize("size", ["8", "batch_size", "cfg.batch_size"])
def test_the_batch_size_text_does_not_decide(size):
    code = textwrap.dedent(PROGRAM.replace("{SQUEEZE}", ""))
    code = code.replace("DataLoader(data, batch_size=8)", f"DataLoader(data, batch_size={size})")
    code = code.replace("if __name__ == \"__main__\":\n", "if __name__ == \"__main__\":\n    batch_size = 8\n"
                        "    cfg = type('Cfg', (), {'batch_size': 8})\n")
    assert [f.code for f in lint(code)] == ["GL006"]


ROWS_OF_A_DATASET = """
import torch
from torch.utils.data import TensorDataset

def class_counts(labels, num_classes):
    counts = torch.zeros(num_classes)
    counts.index_add_(0, labels, torch.ones({SOURCE}))
    return counts

def build(dataset, num_classes):
    {LABELS}
    return class_counts(labels, num_classes)

def main():
    return build(TensorDataset(torch.randn(40, 8), torch.randint(0, 3, (40,))), 3)

if __name__ == "__main__":
    main()
"""


@pytest.mark.parametrize("labels", ["labels = torch.stack([y for _, y in dataset])",
                                    "labels = torch.stack([item[1] for item in dataset])",
                                    "rows = []\n    for _, y in dataset:\n        rows.append(y)\n    labels = torch.stack(rows)",
                                    "rows = []\n    for i in range(40):\n        rows.append(dataset[i][1])\n    labels = torch.stack(rows)"])
def test_a_tensor_dataset_handed_in_yields_its_rows(torch, labels):
    """Iterating a TensorDataset of 40 rows gives 40 labels: index_add_ with one source value per class (3)
    raises, one per label (40) counts."""
    code = ROWS_OF_A_DATASET.replace("{LABELS}", labels)
    bad = code.replace("{SOURCE}", "num_classes")
    assert [f.code for f in lint(bad)] == ["GL003"]
    scope = {"__name__": "snippet"}
    exec(textwrap.dedent(bad), scope)  # noqa: S102 - the snippet under test
    with pytest.raises(RuntimeError, match="Number of indices"):
        scope["main"]()
    good = code.replace("{SOURCE}", "labels.numel()")
    assert lint(good) == []
    scope = {"__name__": "snippet"}
    exec(textwrap.dedent(good), scope)  # noqa: S102
    assert scope["main"]().sum().item() == 40


def test_rows_appended_under_a_condition_have_no_known_count():
    """Only an append made once per round counts the rounds: a filtered loop keeps some rows, how many unknown."""
    code = ROWS_OF_A_DATASET.replace(
        "{LABELS}", "rows = []\n    for _, y in dataset:\n        if y > 0:\n            rows.append(y)\n    labels = torch.stack(rows)"
    ).replace("{SOURCE}", "num_classes")
    assert lint(code) == []
