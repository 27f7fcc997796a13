"""Value facts through a data pipeline. GL008: class ids cast to float in a dataset (`cat([boxes, labels.float()],
1)`), collated key by key (`{k: torch.stack([it[k] for it in items]) for k in items[0]}`) or by the default
collate, still hold a float the code made when a model's loss hands them to F.one_hot. GL011: labels made in
a range (`arange(n) % num_classes`) keep it in every batch."""
import textwrap

import pytest

from .conftest import codes

PIPELINE = '''
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, Dataset


class Clips(Dataset):
    def __init__(self, n, classes):
        boxes = torch.rand(n, 4)
        labels = torch.randint(0, classes, (n, 1))
        self.feats = torch.randn(n, 8)
        self.annots = torch.cat([boxes, {LABELS}], dim=1)

    def __len__(self):
        return len(self.feats)

    def __getitem__(self, i):
        row = self.annots[i]
        return {{"feat": self.feats[i], "label": row[4]{CAST}}}


def collate(items):
    return {COLLATE}


class Head(nn.Module):
    def __init__(self, classes):
        super().__init__()
        self.classes = classes
        self.fc = nn.Linear(8, classes)

    def loss(self, batch):
        logits = self.fc(batch["feat"])
        target = F.one_hot(batch["label"], self.classes).to(logits.dtype)
        return F.binary_cross_entropy_with_logits(logits, target)


def train(classes=5):
    head = Head(classes)
    loader = DataLoader(Clips(10, classes), batch_size=4{COLLATE_FN})
    {LOOP}


if __name__ == "__main__":
    print(train())
'''

COLLATES = {
    "keys of the first item": ("{k: torch.stack([it[k] for it in items]) for k in items[0]}", ", collate_fn=collate"),
    "keys()": ("{k: torch.stack([it[k] for it in items]) for k in items[0].keys()}", ", collate_fn=collate"),
    "default collate": ("None", ""),
}
LOOPS = {
    "comprehension": "return [head.loss(batch).item() for batch in loader]",
    "for loop": "out = []\n    for batch in loader:\n        out.append(head.loss(batch).item())\n    return out",
}


def program(collate: str, loop: str, labels: str = "labels.float()", cast: str = "") -> str:
    body, passed = COLLATES[collate]
    return PIPELINE.format(LABELS=labels, CAST=cast, COLLATE=body, COLLATE_FN=passed, LOOP=LOOPS[loop])


@pytest.mark.parametrize("loop", sorted(LOOPS))
@pytest.mark.parametrize("collate", sorted(COLLATES))
def test_float_class_ids_made_in_the_dataset_reach_one_hot(collate, loop, torch):
    code = program(collate, loop)
    assert codes(code) == ["GL008"]
    with pytest.raises(RuntimeError, match="one_hot is only applicable to index tensor"):
        exec(textwrap.dedent(code), {"__name__": "__main__"})


@pytest.mark.parametrize("collate", sorted(COLLATES))
def test_ids_cast_back_to_long_are_silent(collate, torch):
    code = program(collate, "for loop", cast=".long()")
    assert codes(code) == []
    exec(textwrap.dedent(code), {"__name__": "__main__"})


def test_float_columns_drawn_as_floats_raise_in_one_hot_too(torch):
    # labels drawn as floats in the first place: no cast made them float, but the code did (torch.rand), and
    # one_hot refuses any float; only a float that an annotation alone gives is left to a warning
    code = program("keys of the first item", "for loop", labels="torch.rand(n, 1)")
    assert codes(code) == ["GL008"]
    with pytest.raises(RuntimeError, match="one_hot is only applicable to index tensor"):
        exec(textwrap.dedent(code), {"__name__": "__main__"})


LABEL_RANGE = '''
import torch
from torch.utils.data import DataLoader, Dataset

class Domain(Dataset):
    def __init__(self, n, num_classes):
        self.feats = torch.randn(n, 4)
        self.labels = torch.arange(n) % num_classes

    def __len__(self):
        return len(self.labels)

    def __getitem__(self, i):
        return self.feats[i], self.labels[i]

def one_hot(labels):
    return torch.zeros(labels.size(0), 31).scatter_(1, labels.unsqueeze(1), 1.0)

if __name__ == "__main__":
    for feats, labels in DataLoader(Domain(80, {CLASSES}), batch_size=40):
        out = one_hot(labels)
'''


def test_a_label_range_made_in_the_dataset_holds_for_its_batches(torch):
    # `% 65` remainders, one per item, stay in [0, 65) once stacked into a batch: a 31-column one-hot overflows
    code = LABEL_RANGE.format(CLASSES=65)
    assert codes(code) == ["GL011"]
    with pytest.raises(RuntimeError, match="out of bounds"):
        exec(textwrap.dedent(code), {"__name__": "__main__"})
    fitting = LABEL_RANGE.format(CLASSES=31)
    assert codes(fitting) == []
    exec(textwrap.dedent(fitting), {"__name__": "__main__"})
