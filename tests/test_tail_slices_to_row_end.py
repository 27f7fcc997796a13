"""A row written at `width - n:width` of a buffer `width` wide is written at its back, as `-n:` is: the padding
comes first (GL024 then reads `mask.sum(1) - 1` of that batch as a position of the padding)."""
import pytest

from .conftest import codes
from .snippets import run_snippet

POOL = """
import torch

def last_token_pool(h, attention_mask):
    sequence_lengths = attention_mask.sum(dim=1) - 1
    return h[torch.arange(h.shape[0]), sequence_lengths]

def collate(ids):
    width = max(map(len, ids))
    attention_mask = torch.zeros(len(ids), width, dtype=torch.long)
    for i, row in enumerate(ids):
        attention_mask[i, WRITE] = 1
    return attention_mask

if __name__ == "__main__":
    h = torch.arange(6.0).view(2, 3, 1)
    mask = collate([[1, 2, 3], [4]])
    OUT = last_token_pool(h, mask)
"""


@pytest.mark.parametrize("write", ["-len(row):", "width - len(row):", "width - len(row):width"])
def test_a_row_written_up_to_its_end_is_left_padded(write, torch):
    program = POOL.replace("WRITE", write)
    assert codes(program) == ["GL024"]
    out = run_snippet(program)["OUT"]
    assert out[1].item() == 3.0  # row 1's one token sits at position 2 (value 5); the pool read position 0


@pytest.mark.parametrize("write", [":len(row)", "0:len(row)", "width - len(row):width - 1"])
def test_a_row_written_elsewhere_is_not(write, torch):
    program = POOL.replace("WRITE", write)
    assert "GL024" not in codes(program)


# the slice written as a `slice` object bound to a name, chosen by the tokenizer's padding side (a class
# attribute, read through `self`)
SPAN = """
import torch

class Collator:
    padding_side = SIDE

    def __call__(self, ids):
        width = max(map(len, ids))
        attention_mask = torch.zeros(len(ids), width, dtype=torch.long)
        for i, row in enumerate(ids):
            span = slice(width - len(row), width) if self.padding_side == "left" else slice(0, len(row))
            attention_mask[i, span] = 1
        return {"attention_mask": attention_mask}

def last_token_pool(h, attention_mask):
    sequence_lengths = attention_mask.sum(dim=1) - 1
    return h[torch.arange(h.shape[0]), sequence_lengths]

if __name__ == "__main__":
    h = torch.arange(6.0).view(2, 3, 1)
    batch = Collator()([[1, 2, 3], [4]])
    OUT = last_token_pool(h, batch["attention_mask"])
"""


def test_a_slice_object_chosen_by_a_left_padding_side_is_a_back_write(torch):
    program = SPAN.replace("SIDE", '"left"')
    assert codes(program) == ["GL024"]
    assert run_snippet(program)["OUT"][1].item() == 3.0  # row 1's one token is at position 2 (value 5)


def test_the_same_collator_padding_on_the_right_is_not(torch):
    program = SPAN.replace("SIDE", '"right"')
    assert "GL024" not in codes(program)
    assert run_snippet(program)["OUT"][1].item() == 3.0  # position 0 is row 1's token now: read right
