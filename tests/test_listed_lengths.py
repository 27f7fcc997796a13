"""Lists built item by item keep each item's length: `[randint(1, V, (n,)).tolist() for n in lengths]` is one
list of n numbers per length, `max(len(d) for d in docs)` the longest, and a batch padded to it has that many
positions, which a learned position table must hold."""
import pytest

from .conftest import codes, lint
from .snippets import run_program

PROGRAM = """
import torch
import torch.nn as nn


class Embeddings(nn.Module):
    def __init__(self):
        super().__init__()
        self.words = nn.Embedding(1000, 8)
        self.positions = nn.Embedding(512, 8)

    def forward(self, input_ids):
        position_ids = torch.arange(input_ids.size(1)).unsqueeze(0).expand_as(input_ids)
        return self.words(input_ids) + self.positions(position_ids)


def collate(docs):
    longest = max(len(d) for d in docs)
    batch = torch.zeros(len(docs), longest, dtype=torch.long)
    for i, d in enumerate(docs):
        batch[i, :len(d)] = torch.tensor(d)
    return batch


def make_docs(lengths):
    return [torch.randint(1, 1000, (n,)).tolist() for n in lengths]


if __name__ == "__main__":
    torch.manual_seed(0)
    RESULT = Embeddings()(collate(make_docs([120, 388, 640])))
"""


def test_positions_of_the_longest_document_pass_the_table(torch):
    findings = lint(PROGRAM)
    assert [f.code for f in findings] == ["GL011"]
    assert "639" in findings[0].message
    with pytest.raises(IndexError, match="index out of range"):
        run_program(PROGRAM)
    fixed = PROGRAM.replace("[120, 388, 640]", "[120, 388, 500]")
    assert codes(fixed) == []
    assert run_program(fixed).shape == (3, 500, 8)


def test_a_truncating_collate_stays_silent(torch):
    fixed = PROGRAM.replace("batch[i, :len(d)] = torch.tensor(d)", "batch[i, :len(d[:512])] = torch.tensor(d[:512])") \
        .replace("longest = max(len(d) for d in docs)", "longest = min(max(len(d) for d in docs), 512)")
    assert codes(fixed) == []
    assert run_program(fixed).shape == (3, 512, 8)


def test_the_same_driver_inside_main(torch):
    """Lists of known lengths handed from a function (a `main()`) to the collate: the same finding."""
    in_main = PROGRAM.replace('if __name__ == "__main__":\n    torch.manual_seed(0)\n    RESULT = ',
                              'def main():\n    torch.manual_seed(0)\n    return ') + '\n\nif __name__ == "__main__":\n    RESULT = main()\n'
    assert "def main():" in in_main
    assert codes(in_main) == ["GL011"]
    with pytest.raises(IndexError, match="index out of range"):
        run_program(in_main)
