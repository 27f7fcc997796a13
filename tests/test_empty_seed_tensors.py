"""A tensor whose size is written with a 0 holds no value: `torch.full((n, 0), -1)`, the seed a sampling loop
concatenates its ids onto, never puts the -1 padding into the ids an embedding reads (a false GL011 found on a public
image generator). The same fill with a size past 0 still holds the padding, and torch raises. (A size computed to 0
under one caller's facts is not read as empty: other calls give it entries; the ratchet's case 1531 holds that.)"""
import textwrap

import pytest

from .conftest import lint
from .snippets import run_snippet

torch = pytest.importorskip("torch")

SEEDED = """
import torch
import torch.nn as nn

def generate(embed, num_samples, steps):
    ids = torch.full((num_samples, {width}), -1)
    for _ in range(steps):
        hidden = embed(ids).mean(1) if ids.shape[1] else torch.zeros(num_samples, 8)
        probs = hidden[:, :4].softmax(-1)
        ids = torch.cat([ids, torch.multinomial(probs, 1)], dim=1)
    return embed(ids)

if __name__ == "__main__":
    out = generate(nn.Embedding(16, 8), 2, 3)
"""


def test_an_empty_seed_holds_no_padding_and_runs():
    code = textwrap.dedent(SEEDED.replace("{width}", "0"))
    assert lint(code) == []
    run_snippet(code)


def test_a_seed_with_entries_holds_the_padding_and_torch_raises():
    code = textwrap.dedent(SEEDED.replace("{width}", "1"))
    assert "GL011" in [v.code for v in lint(code)]
    with pytest.raises(IndexError, match="index out of range"):
        run_snippet(code)
