"""Ids a generation loop samples from the model's output and appends to the ids it feeds back
(`ids = torch.cat((ids, nxt), dim=1)`): from the second step on they hold positions of the output's
last dim. A head wider than the vocabulary samples ids past the token table (the table's rows are a
character vocabulary counted from a written string). Torch raises on those ids; a head as wide as
the vocabulary stays silent and generates only ids the table has. The loop's trial run reads the
model's own analysis, so the output's width must be known there: layers of written sizes, the rank
from a shape comment."""
import textwrap

import pytest

from .conftest import lint

SAMPLER = """
import torch
import torch.nn as nn
import torch.nn.functional as F

ALPHABET = sorted(set("hello world"))
N_CHARS = len(ALPHABET)


class CharModel(nn.Module):
    def __init__(self, n_chars):
        super().__init__()
        self.embed = nn.Embedding(n_chars, 16)
        self.head = nn.Linear(16, 16)

    def forward(self, ids):
        scores = self.head(self.embed(ids))  # [B, T, V]  # expect
        return scores


def sample(model, ids, steps):
    for _ in range(steps):
        logits = model(ids)
        nxt = torch.multinomial(F.softmax(logits[:, -1], dim=-1), num_samples=1)
        ids = torch.cat((ids, nxt), dim=1)
    return ids


if __name__ == "__main__":
    model = CharModel(N_CHARS)
    print(sample(model, torch.zeros(1, 1, dtype=torch.long), 20))
"""

GREEDY_METHOD = """
import torch
import torch.nn as nn

VOCAB = sorted(set("abcab"))


class Decoder(nn.Module):
    def __init__(self, vocab_size):
        super().__init__()
        self.tokens = nn.Embedding(vocab_size, 8)
        self.proj = nn.Linear(8, 8)

    def forward(self, ids):
        h = self.tokens(ids)  # (batch, time, hidden)  # expect
        return self.proj(torch.tanh(h))

    @torch.no_grad()
    def greedy(self, ids, max_new):
        step = 0
        while step < max_new:
            nxt = self(ids)[:, -1].argmax(dim=-1)
            ids = torch.cat([ids, nxt[:, None]], dim=-1)
            step += 1
        return ids


if __name__ == "__main__":
    decoder = Decoder(len(VOCAB))
    print(decoder.greedy(torch.zeros(2, 1, dtype=torch.long), 5))
"""


def findings(code: str):
    return [(f.line, f.code) for f in lint(code)]


def expected(code: str):
    return [(n, "GL011") for n, text in enumerate(code.splitlines(), 1) if text.endswith("# expect")]


def run(code: str):
    scope = {"__name__": "snippet"}
    exec(textwrap.dedent(code), scope)  # noqa: S102 - the snippet under test
    return scope


def test_sampled_ids_from_a_head_wider_than_the_vocabulary_are_reported(torch):
    assert findings(SAMPLER) == expected(SAMPLER)
    assert "0 to 15" in lint(SAMPLER)[0].message
    scope = run(SAMPLER)
    assert scope["N_CHARS"] == 8
    torch.manual_seed(0)
    with pytest.raises(IndexError, match="index out of range in self"):
        scope["sample"](scope["CharModel"](8), torch.zeros(1, 1, dtype=torch.long), 40)


def test_greedy_ids_from_a_wider_projection_are_reported(torch):
    assert findings(GREEDY_METHOD) == expected(GREEDY_METHOD)
    scope = run(GREEDY_METHOD)
    decoder = scope["Decoder"](3)
    with torch.no_grad():
        decoder.proj.bias.zero_()
        decoder.proj.bias[7] = 100.0  # the wider output's last position wins: id 7 of a 3-row table
    with pytest.raises(IndexError, match="index out of range in self"):
        decoder.greedy(torch.zeros(2, 1, dtype=torch.long), 2)


@pytest.mark.parametrize("head", ["nn.Linear(16, n_chars)", "nn.Linear(16, 8)"])
def test_a_head_as_wide_as_the_vocabulary_stays_silent_and_generates_known_ids(head, torch):
    fixed = SAMPLER.replace("self.head = nn.Linear(16, 16)", f"self.head = {head}")
    assert findings(fixed) == []
    scope = run(fixed)
    torch.manual_seed(0)
    out = scope["sample"](scope["CharModel"](8), torch.zeros(1, 1, dtype=torch.long), 40)
    assert int(out.max()) < 8


def test_samples_that_are_not_fed_back_stay_silent():
    kept_apart = SAMPLER.replace("ids = torch.cat((ids, nxt), dim=1)", "out = torch.cat((ids, nxt), dim=1)")
    assert findings(kept_apart) == []
