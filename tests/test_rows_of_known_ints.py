"""Rows of known ints appended one by one (`[pad] * n + list(range(k))` per prompt) hold ints among all of
theirs: torch.tensor of them keeps the largest, so a padding id of 1000 among position ids looked up in a
128-row position table is found, as it is in one literal. Each claim runs in torch."""
import pytest

from .conftest import lint
from .snippets import run_snippet

PREFILL = """
import torch
from torch import nn

def pad_for_prefill(prompts, pad):
    max_len = max(len(p) for p in prompts)
    position_ids = []
    for prompt in prompts:
        n_pad = max_len - len(prompt)
        position_ids.append([pad] * n_pad + list(range(len(prompt))))
    return torch.tensor(position_ids)

if __name__ == "__main__":
    table = nn.Embedding(128, 16)
    OUT = table(pad_for_prefill([[5, 17, 99, 3, 42], [7, 8], [300, 12, 9]], PAD))
"""


def test_a_padding_id_past_the_position_table_is_found(torch):
    program = PREFILL.replace("PAD", "1000")
    assert [(f.code, f.line) for f in lint(program)] == [("GL011", 15)]
    with pytest.raises(IndexError, match="index out of range in self"):
        run_snippet(program)


def test_a_padding_id_within_the_table_is_not(torch):
    program = PREFILL.replace("PAD", "0")
    assert lint(program) == []
    assert tuple(run_snippet(program)["OUT"].shape) == (3, 5, 16)


def test_too_many_known_ints_are_not_followed_one_by_one():
    from gather_lint.static.scalars import ChosenInt, chosen_of
    from gather_lint.static.values import DimVal

    assert chosen_of([DimVal(3), DimVal(1000)]).choices == (3, 1000)
    assert chosen_of([ChosenInt(None, choices=(1, 2)), DimVal(7)]).choices == (1, 2, 7)
    assert chosen_of([DimVal(k) for k in range(65)]) is None
    assert chosen_of([DimVal(3), DimVal(None)]) is None
