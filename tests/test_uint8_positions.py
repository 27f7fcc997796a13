"""Positions held as uint8 (GL008): torch reads a uint8 key as a boolean mask. The table of permutations
is made in one class (`randperm` of a module constant written as arithmetic) and indexed in another part
of the file that names no torch. Each program runs in torch."""
import textwrap
import warnings

import pytest

from gather_lint.static.module_constants import constants

from .conftest import codes

torch = pytest.importorskip("torch")

JIGSAW = """
import torch

GRID = 3
NUM_TILES = GRID * GRID


def permutation_table(count, seed=0):
    g = torch.Generator().manual_seed(seed)
    return torch.stack([torch.randperm(NUM_TILES, generator=g) for _ in range(count)]).to(torch.uint8)


class Puzzles:
    def __init__(self, tiles, count=4):
        self.tiles = tiles
        self.table = permutation_table(count)

    def __getitem__(self, i):
        label = i % len(self.table)
        order = self.table[label]
        return self.tiles[order], label


def run():
    tiles = torch.arange(NUM_TILES * 2.0).view(NUM_TILES, 2)
    shuffled, label = Puzzles(tiles)[1]
    return shuffled, Puzzles(tiles).table[label]
"""


def run(code: str):
    namespace = {}
    exec(textwrap.dedent(code), namespace)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)  # torch's deprecation warning for uint8 keys
        return namespace["run"]()


def test_a_uint8_permutation_key_is_reported_and_is_a_mask_in_torch():
    assert codes(JIGSAW) == ["GL008"]
    shuffled, order = run(JIGSAW)
    tiles = torch.arange(NUM_TILES_VALUE * 2.0).view(NUM_TILES_VALUE, 2)
    assert shuffled.shape[0] == NUM_TILES_VALUE - 1  # the row where the permutation holds 0 is dropped
    assert not torch.equal(shuffled, tiles[order.long()][:shuffled.shape[0]])


def test_converted_to_long_it_is_silent_and_reorders():
    code = JIGSAW.replace("return self.tiles[order], label", "return self.tiles[order.long()], label")
    assert codes(code) == []
    shuffled, order = run(code)
    tiles = torch.arange(NUM_TILES_VALUE * 2.0).view(NUM_TILES_VALUE, 2)
    assert torch.equal(shuffled, tiles[order.long()])


def test_module_constants_written_as_arithmetic_of_constants():
    found = constants("GRID = 3\nNUM_TILES = GRID * GRID\nDEPTH = 2 ** GRID  # levels\nHALF = GRID / 2\n"
                      "OTHER = make(GRID)\nWIDE = (GRID + 1) * 2\nPAD_TAG = -1\n")
    assert {name: v.dim.size for name, v in found.items()} == {"GRID": 3, "NUM_TILES": 9, "DEPTH": 8, "WIDE": 8,
                                                               "PAD_TAG": -1}


def test_padding_named_by_a_module_constant_is_padding():
    code = """
    import torch

    PAD_TAG = -1

    def pick(log_probs):
        # log_probs: [B, T, C]
        b, t, c = log_probs.shape
        tags = torch.full((b, t), PAD_TAG, dtype=torch.long)
        return log_probs.gather(-1, tags.unsqueeze(-1))

    def run():
        return pick(torch.randn(2, 4, 5).log_softmax(-1))
    """
    assert codes(code) == ["GL011"]
    with pytest.raises(RuntimeError, match="out of bounds"):
        run(code)


NUM_TILES_VALUE = 9
