"""A long vector's `.tolist()` is a list of that many numbers even where its items are not spelled out one
by one: `torch.tensor([ids])` of it is [1, n]. A window of it (`ids[start:start + k]`) is shorter, by how
much only known bounds say."""
import textwrap

import pytest

from .conftest import codes

TAGGER = """
import torch
import torch.nn as nn

def position_ids_of(input_ids, padding_idx):
    mask = input_ids.ne(padding_idx).int()
    return (torch.cumsum(mask, dim=1).type_as(mask) * mask).long() + padding_idx

class Tagger(nn.Module):
    def __init__(self):
        super().__init__()
        self.positions = nn.Embedding(66, 8, padding_idx=1)

    def forward(self, input_ids):
        return self.positions(position_ids_of(input_ids, 1))

def tag(model, token_ids):
    {BODY}

if __name__ == "__main__":
    transcript = torch.randint(2, 500, ({N},)).tolist()
    out = tag(Tagger(), transcript)
"""

WHOLE = "return model(torch.tensor([token_ids]))"
WINDOWED = """out = []
    for start in range(0, len(token_ids), 64):
        out.append(model(torch.tensor([token_ids[start:start + 64]])))
    return out"""


@pytest.mark.parametrize("n", [65, 90, 300])
def test_positions_of_a_long_listed_transcript_pass_the_table(n, torch):
    code = TAGGER.format(BODY=WHOLE, N=n)
    assert codes(code) == ["GL011"]
    with pytest.raises(IndexError, match="index out of range in self"):
        exec(textwrap.dedent(code), {"__name__": "__main__"})


@pytest.mark.parametrize("n, body", [(60, WHOLE), (90, WINDOWED), (300, WINDOWED)])
def test_short_or_windowed_transcripts_are_silent(n, body, torch):
    code = TAGGER.format(BODY=body, N=n)
    assert codes(code) == []
    exec(textwrap.dedent(code), {"__name__": "__main__"})
