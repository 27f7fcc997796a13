"""A lookup of an unknown key in a dict written out with int values is one of those ints; torch.tensor of such
lookups (a list, or rows of them) holds values up to the largest. A one-hot or a table sized below that largest
value raises when a key that maps to it comes up."""
import pytest

from .conftest import codes, lint
from .snippets import run_snippet

ENCODE = """
import torch
import torch.nn.functional as F

def encode(reads, alphabet):
    return torch.tensor(ROWS)

def embed(ids, num_classes):
    return F.one_hot(ids, num_classes=num_classes)

if __name__ == "__main__":
    cfg = {"num_classes": CLASSES, "alphabet": {"A": 0, "C": 1, "G": 2, "T": 3, "N": 4}}
    OUT = embed(encode(["ACGTN", "TTGCA"], cfg["alphabet"]), cfg["num_classes"])
"""
NESTED = "[[alphabet[base] for base in r] for r in reads]"
FLAT = "[alphabet[base] for base in reads[0]]"


@pytest.mark.parametrize("rows", [NESTED, FLAT])
def test_a_base_past_the_classes_is_reported_and_raises(rows, torch):
    program = ENCODE.replace("ROWS", rows).replace("CLASSES", "4")
    found = [f for f in lint(program) if f.code == "GL011"]
    assert len(found) == 1 and "values of `alphabet`, 4 among them" in found[0].message
    with pytest.raises(RuntimeError, match="Class values must be smaller than num_classes"):
        run_snippet(program)


@pytest.mark.parametrize("rows", [NESTED, FLAT])
def test_classes_that_cover_every_value_are_silent(rows, torch):
    program = ENCODE.replace("ROWS", rows).replace("CLASSES", "5")
    assert codes(program) == []
    assert run_snippet(program)["OUT"].shape[-1] == 5


def test_a_map_with_a_negative_value_gives_no_bound(torch):
    """`-1` for an unknown base: the values are no positions from 0, so no bound is claimed from the map."""
    program = ENCODE.replace("ROWS", NESTED).replace("CLASSES", "4").replace('"N": 4', '"N": -1')
    assert "GL011" not in codes(program)
