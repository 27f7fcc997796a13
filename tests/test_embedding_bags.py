"""nn.EmbeddingBag as a lookup table: one row per bag (a 2-d input's rows, or one per offset of a 1-d input), its
ids checked as an embedding's are (dtype, range). Each claim is run in torch."""
import pytest

from .conftest import lint
from .snippets import run_program

BAGS = """
import torch
import torch.nn as nn


class FieldPooling(nn.Module):
    def __init__(self, vocab, dim):
        super().__init__()
        self.bags = nn.EmbeddingBag(vocab, dim, mode="mean")

    def forward(self, ids, rows):
        pooled = self.bags(IDS)
        return pooled.gather(0, rows.unsqueeze(1))  # expect


if __name__ == "__main__":
    torch.manual_seed(0)
    ids = torch.randint(0, 20, (6, 5))
    rows = torch.tensor([5, 0, 3])
    with torch.no_grad():
        model = FieldPooling(20, 8)
        RESULT = model(ids, rows), model.bags(ids)[rows]
"""


def test_a_bag_per_row_gives_one_vector_per_row(torch):
    program = BAGS.replace("IDS", "ids")
    found = [(f.code, f.line) for f in lint(program)]
    assert ("GL005", 13) in found, found  # [3, 1] index into [6, 8]: only column 0 of each picked row
    got, picked = run_program(program)
    assert got.shape == (3, 1) and torch.equal(got[:, 0], picked[:, 0])


def test_float_ids_into_a_bag_are_flagged(torch):
    program = BAGS.replace("IDS", "ids.float()").replace("rows.unsqueeze(1))", "rows.unsqueeze(1).expand(-1, 8))")
    assert "GL008" in [f.code for f in lint(program)]
    with pytest.raises(RuntimeError, match="Long, Int"):
        run_program(program)


def test_ids_past_the_bag_table_are_flagged(torch):
    program = BAGS.replace("IDS", "ids + 20").replace("rows.unsqueeze(1))", "rows.unsqueeze(1).expand(-1, 8))")
    assert "GL011" in [f.code for f in lint(program)]
    with pytest.raises((IndexError, RuntimeError), match="range|index_size"):  # torch words it either way
        run_program(program)


def test_ids_within_the_table_and_a_whole_row_read_are_silent(torch):
    program = BAGS.replace("IDS", "ids").replace("rows.unsqueeze(1))", "rows.unsqueeze(1).expand(-1, 8))")
    assert lint(program) == []
    got, picked = run_program(program)
    assert torch.equal(got, picked)
