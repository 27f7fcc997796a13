"""GL024 (static/shared_end_positions.py): two sequences each read at the larger of their two positions.

Each snippet binds `read` (what the code picked per row) and `own` (each sequence's value at its own last
real token, computed one row at a time); torch must show them differ for a flagged snippet and agree for
a near-miss.
"""
import textwrap

import pytest
import torch

from .conftest import lint
from .snippets import run_snippet

_SETUP = """
import torch
import torch.nn as nn

class Critic(nn.Module):
    def __init__(self):
        super().__init__()
        self.emb = nn.Embedding(12, 1)

    def forward(self, tokens):
        return self.emb(tokens).squeeze(-1).cumsum(1)  # [B, T]: running value

torch.manual_seed(0)
critic = Critic()
PAD = 0
ids_a = torch.tensor([[3, 4, 5, 0, 0], [6, 7, 8, 9, 2]])
ids_b = torch.tensor([[3, 4, 5, 7, 1], [6, 7, 0, 0, 0]])

def own_last(tokens):
    return torch.stack([critic(row[row != PAD][None])[0, -1] for row in tokens])
"""

FLAGGED = [
    ("row-pick-at-shared-length", _SETUP + """
def pair_margin(model, first, second):
    values_first = model(first)
    values_second = model(second)
    len_first = (first != PAD).sum(dim=1)
    len_second = (second != PAD).sum(dim=1)
    last = torch.max(len_first, len_second) - 1
    rows = torch.arange(first.size(0))
    return values_first[rows, last], values_second[rows, last]

read = torch.stack(pair_margin(critic, ids_a, ids_b))
own = torch.stack([own_last(ids_a), own_last(ids_b)])
""", (29,)),
    ("method-maximum-take-along-dim", _SETUP + """
class PairScorer:
    def __init__(self, model):
        self.model = model

    def ends(self, tokens):
        return (tokens != PAD).long().sum(-1)

    def __call__(self, good, bad):
        scores_good, scores_bad = self.model(good), self.model(bad)
        g_end, b_end = self.ends(good), self.ends(bad)
        shared = g_end.maximum(b_end)
        pick_good = torch.take_along_dim(scores_good, (shared - 1)[:, None], dim=1)
        pick_bad = torch.take_along_dim(scores_bad, (shared - 1)[:, None], dim=1)
        return torch.stack([pick_good[:, 0], pick_bad[:, 0]])

read = PairScorer(critic)(ids_a, ids_b)
own = torch.stack([own_last(ids_a), own_last(ids_b)])
""", (33, 34)),
]

NEAR_MISSES = [
    ("each-at-its-own-end", _SETUP + """
def pair_margin(model, first, second):
    values_first, values_second = model(first), model(second)
    len_first = (first != PAD).sum(dim=1)
    len_second = (second != PAD).sum(dim=1)
    longest = torch.max(len_first, len_second)
    rows = torch.arange(first.size(0))
    assert int(longest.max()) <= first.size(1)
    return values_first[rows, len_first - 1], values_second[rows, len_second - 1]

read = torch.stack(pair_margin(critic, ids_a, ids_b))
own = torch.stack([own_last(ids_a), own_last(ids_b)])
"""),
]


@pytest.mark.parametrize("name,code,lines", FLAGGED, ids=[c[0] for c in FLAGGED])
def test_flagged_and_torch_reads_past_the_shorter_end(name, code, lines):
    found = {f.line for f in lint(textwrap.dedent(code)) if f.code == "GL024"}
    assert set(lines) <= found, found
    scope = run_snippet(code)
    assert not torch.allclose(scope["read"], scope["own"])


@pytest.mark.parametrize("name,code", NEAR_MISSES, ids=[c[0] for c in NEAR_MISSES])
def test_near_miss_is_silent_and_torch_agrees(name, code):
    assert [f for f in lint(textwrap.dedent(code)) if f.code == "GL024"] == []
    scope = run_snippet(code)
    assert torch.allclose(scope["read"], scope["own"])


def test_positions_of_one_sequence_are_not_a_pair():
    code = """
import torch
def last_states(h, mask_a, mask_b):
    a = mask_a.sum(1)
    b = mask_b.sum(1) + 1
    end = torch.maximum(a, b)
    return h.gather(1, end[:, None, None].expand(-1, 1, h.size(-1)))
"""
    assert [f for f in lint(code) if f.code == "GL024"] == []
