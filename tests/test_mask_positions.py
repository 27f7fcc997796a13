"""GL007 (static/mask_positions.py): a mask token written at position `n` of each row, the model's output
read at `n - 1`.

Each snippet binds `read` (the rows the code picks) and `at_mask` (each row's output at its mask, found
by a loop over the tokens); torch must show them differ for a flagged snippet and agree for a near-miss.
"""
import textwrap

import pytest
import torch

from .conftest import lint
from .snippets import run_snippet

_SETUP = """
import torch
import torch.nn as nn
import torch.nn.functional as F

MASK_ID = 9

class ContextEncoder(nn.Module):
    def __init__(self):
        super().__init__()
        self.emb = nn.Embedding(10, 4)

    def forward(self, tokens):
        e = self.emb(tokens)
        return e + e.mean(dim=1, keepdim=True)  # [B, T, 4]: each position sees the whole row

torch.manual_seed(0)
encoder = ContextEncoder()
history = torch.tensor([[3, 1, 4, 0], [2, 7, 0, 0]])
sizes = torch.tensor([3, 2])

def at_mask_reference(model, seqs, lengths):
    out = model(seqs)
    rows = [out[b, int((seqs[b] == MASK_ID).nonzero()[0, 0])] for b in range(seqs.size(0))]
    return torch.stack(rows)
"""

FLAGGED = [
    ("inline-row-pick", _SETUP + """
def predict(model, tokens, n):
    tokens = torch.cat([tokens, tokens.new_zeros(tokens.size(0), 1)], dim=1)
    rows = torch.arange(tokens.size(0))
    tokens[rows, n] = MASK_ID
    hidden = model(tokens)
    return hidden[rows, n - 1], tokens

read, filled = predict(encoder, history.clone(), sizes)
at_mask = at_mask_reference(encoder, filled, sizes)
""", 32),
    ("scatter-helper-then-gather", _SETUP + """
def with_mask(seqs, lengths):
    out = F.pad(seqs, (0, 1))
    out.scatter_(1, lengths.unsqueeze(1), MASK_ID)
    return out

def predict(model, tokens, n):
    filled = with_mask(tokens, n)
    states = model(filled)
    picked = states.gather(1, (n - 1).view(-1, 1, 1).expand(-1, 1, states.size(-1))).squeeze(1)
    return picked, filled

read, filled = predict(encoder, history, sizes)
at_mask = at_mask_reference(encoder, filled, sizes)
""", 35),
]

NEAR_MISSES = [
    ("read-at-the-mask", _SETUP + """
def with_mask(seqs, lengths):
    out = F.pad(seqs, (0, 1))
    out.scatter_(1, lengths.unsqueeze(1), MASK_ID)
    return out

def predict(model, tokens, n):
    filled = with_mask(tokens, n)
    states = model(filled)
    picked = states.gather(1, n.view(-1, 1, 1).expand(-1, 1, states.size(-1))).squeeze(1)
    return picked, filled

read, filled = predict(encoder, history, sizes)
at_mask = at_mask_reference(encoder, filled, sizes)
"""),
]


def test_end_token_read_one_before_is_silent():
    # a causal scorer writes an end token at n and reads the logits at n - 1 that predict it: correct
    code = """
import torch

EOS_ID = 2

def end_logprob(lm, tokens, n):
    rows = torch.arange(tokens.size(0))
    tokens[rows, n] = EOS_ID
    logits = lm(tokens).log_softmax(-1)
    return logits[rows, n - 1, EOS_ID]
"""
    assert [f for f in lint(code) if f.code == "GL007"] == []


@pytest.mark.parametrize("name,code,line", FLAGGED, ids=[c[0] for c in FLAGGED])
def test_flagged_and_torch_reads_the_token_before_the_mask(name, code, line):
    found = [(f.line, f.code) for f in lint(textwrap.dedent(code))]
    assert (line, "GL007") in found, found
    scope = run_snippet(code)
    assert not torch.allclose(scope["read"], scope["at_mask"])


@pytest.mark.parametrize("name,code", NEAR_MISSES, ids=[c[0] for c in NEAR_MISSES])
def test_near_miss_is_silent_and_torch_agrees(name, code):
    assert [f for f in lint(textwrap.dedent(code)) if f.code == "GL007"] == []
    scope = run_snippet(code)
    assert torch.allclose(scope["read"], scope["at_mask"])
