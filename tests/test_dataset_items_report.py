"""A dataset's `__getitem__` run for `dataset[i]` (or a DataLoader's batch) with the facts its constructor was given
is checked like any other call: a one-hot scatter of a parse map stored at another resolution raises there."""
import pytest

from .conftest import codes
from .snippets import run_program

PROGRAM = """
import numpy as np
import torch
from torch.utils.data import DataLoader, Dataset


class ParseMaps(Dataset):
    def __init__(self, raw):
        self.raw = raw

    def __len__(self):
        return len(self.raw)

    def __getitem__(self, i):
        parse = torch.from_numpy(self.raw[i]).long()[None]
        return torch.zeros(20, 64, 48).scatter_(0, parse, 1.0)


def load(n, height, width):
    rng = np.random.default_rng(0)
    return [rng.integers(0, 20, size=(height, width)).astype(np.uint8) for _ in range(n)]


if __name__ == "__main__":
    RESULT = next(iter(DataLoader(ParseMaps(load(2, 128, 96)), batch_size=2)))
"""


def test_an_item_checked_with_the_constructor_s_facts(torch):
    assert codes(PROGRAM) == ["GL003"]
    with pytest.raises(RuntimeError, match="no larger than self"):
        run_program(PROGRAM)
    fixed = PROGRAM.replace("load(2, 128, 96)", "load(2, 64, 48)")
    assert codes(fixed) == []
    assert run_program(fixed).shape == (2, 20, 64, 48)
