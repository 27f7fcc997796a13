"""Ids a toy tokenizer makes from a document the script writes out have a length the code fixes:
`" ".join(...)`, `.lower().split()`, a comprehension over the words and the special ids around them.
Positions for a longer document than the position table raise in torch; a tokenizer that truncates
to the table stays silent and runs."""
import textwrap

import pytest

from .conftest import lint

ENCODER = """
import torch
import torch.nn as nn

CLS_ID = 0
SEP_ID = 1
UNK_ID = 2


def encode(text, vocab, max_len=None):
    words = text.lower().split()
    if max_len is not None:
        words = words[: max_len - 2]
    return [CLS_ID] + [vocab.get(w, UNK_ID) for w in words] + [SEP_ID]


class TinyEncoder(nn.Module):
    def __init__(self, vocab_size, max_len, width=8):
        super().__init__()
        self.tok = nn.Embedding(vocab_size, width)
        self.pos = nn.Embedding(max_len, width)

    def forward(self, ids):
        positions = torch.arange(ids.size(1), device=ids.device)
        return self.tok(ids) + self.pos(positions)  # expect


if __name__ == "__main__":
    vocab = {"the": 3, "cat": 4, "sat": 5}
    story = " ".join(["The cat sat"] * 6)
    ids = torch.tensor([encode(story, vocab)])
    print(TinyEncoder(6, 16)(ids).shape)
"""


def findings(code: str):
    return [(f.line, f.code) for f in lint(code)]


def expected(code: str):
    return [(n, "GL011") for n, text in enumerate(code.splitlines(), 1) if text.endswith("# expect")]


def run(code: str):
    scope = {"__name__": "snippet"}
    exec(textwrap.dedent(code), scope)  # noqa: S102 - the snippet under test
    return scope


def test_positions_of_a_written_document_past_the_table_are_reported(torch):
    assert findings(ENCODER) == expected(ENCODER)
    assert "up to 19" in lint(ENCODER)[0].message
    scope = run(ENCODER)
    ids = torch.tensor([scope["encode"](" ".join(["The cat sat"] * 6), {"the": 3, "cat": 4, "sat": 5})])
    assert ids.shape == (1, 20)  # 18 words and the two special ids
    with pytest.raises(IndexError, match="index out of range in self"):
        scope["TinyEncoder"](6, 16)(ids)


@pytest.mark.parametrize("old, new", [
    ("encode(story, vocab)", "encode(story, vocab, max_len=16)"),  # truncated to the table
    ('["The cat sat"] * 6', '["The cat sat"] * 4'),  # 14 ids
])
def test_a_document_that_fits_the_table_stays_silent_and_runs(old, new, torch):
    program = ENCODER.replace(old, new)
    assert findings(program) == []
    scope = run(program)
    vocab = {"the": 3, "cat": 4, "sat": 5}
    story = " ".join(["The cat sat"] * (4 if "* 4" in new else 6))
    ids = torch.tensor([scope["encode"](story, vocab, 16 if "max_len" in new else None)])
    assert scope["TinyEncoder"](6, 16)(ids).shape == (1, ids.shape[1], 8)
