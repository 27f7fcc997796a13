"""Unpacking a numpy row (`user, item, rating = table[i]`) gives numpy scalars of the array's dtype, and
`torch.tensor` of one is a 0-d tensor of that dtype: a float32 table makes float32 ids, collated by a DataLoader
into float32 batches that no advanced index takes."""
import pytest

from .conftest import codes
from .snippets import run_program

PROGRAM = """
import numpy as np
import torch
from torch.utils.data import DataLoader, Dataset


class Ratings(Dataset):
    def __init__(self, table):
        self.table = table

    def __len__(self):
        return len(self.table)

    def __getitem__(self, i):
        user, item, rating = self.table[i]
        return torch.tensor(user), torch.tensor(item), torch.tensor(rating)


if __name__ == "__main__":
    rng = np.random.default_rng(0)
    table = np.stack([rng.integers(0, 20, 64), rng.integers(0, 30, 64), rng.integers(1, 6, 64)], axis=1)
    table = table.astype(np.float32)
    users, items, ratings = next(iter(DataLoader(Ratings(table), batch_size=16)))
    RESULT = torch.randn(20, 30)[users, items]
"""


def test_float_ids_from_a_float_table(torch):
    assert codes(PROGRAM) == ["GL008"]
    with pytest.raises(IndexError, match="tensors used as indices must be long"):
        run_program(PROGRAM)
    fixed = PROGRAM.replace("torch.tensor(user), torch.tensor(item)", "torch.tensor(int(user)), torch.tensor(int(item))")
    assert codes(fixed) == []
    assert run_program(fixed).shape == (16,)


def test_a_row_of_known_length_unpacks_into_as_many_names_only(torch):
    """Three names for a row of two: Python raises; the names get nothing (no finding made from them)."""
    program = PROGRAM.replace("table = np.stack([rng.integers(0, 20, 64), rng.integers(0, 30, 64), rng.integers(1, 6, 64)], axis=1)",
                              "table = np.zeros((64, 2))")
    assert "GL008" not in codes(program)
    with pytest.raises(ValueError, match="not enough values to unpack"):
        run_program(program)
