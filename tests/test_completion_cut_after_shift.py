"""GL007 (token_shift.py, joined_sequences.py): next-token scores of `torch.cat([prompt, completion], 1)`
cut at the prompt's length leave out the completion's first token.

After `logits[:, :-1]` is paired with `ids[:, 1:]`, score k belongs to token k + 1, so the completion's
scores start at `len(prompt) - 1`. Each snippet binds `got` (what the code sums) and `want` (the
completion's log-probability, summed token by token); torch must show them differ for a flagged snippet
and agree for a near-miss.
"""
import textwrap

import pytest

from .conftest import lint
from .snippets import run_snippet

_MODEL = """
import torch
import torch.nn as nn
import torch.nn.functional as F

class RecurrentLM(nn.Module):
    def __init__(self, vocab=17, width=8):
        super().__init__()
        self.emb = nn.Embedding(vocab, width)
        self.rnn = nn.GRU(width, width, batch_first=True)
        self.out = nn.Linear(width, vocab)

    def forward(self, ids):
        states, _ = self.rnn(self.emb(ids))
        return self.out(states)

def per_token_logprobs(logits, targets):
    return logits.log_softmax(-1).gather(-1, targets.unsqueeze(-1)).squeeze(-1)

torch.manual_seed(0)
lm = RecurrentLM()
context = torch.randint(0, 17, (1, 4))
reply = torch.randint(0, 17, (1, 3))

def reference(model, first, second):
    ids = torch.cat([first, second], dim=1)
    lp = model(ids).log_softmax(-1).detach()
    return sum(float(lp[0, t - 1, ids[0, t]]) for t in range(first.size(1), ids.size(1)))

want = reference(lm, context, reply)
"""

FLAGGED = [
    ("inline-length-name", _MODEL + """
def reply_logprob(model, first, second):
    ids = torch.cat((first, second), dim=-1)
    prompt_len = first.shape[-1]
    logits = model(ids)
    scores = per_token_logprobs(logits[:, :-1], ids[:, 1:])
    return float(scores[:, prompt_len:].sum())

got = reply_logprob(lm, context, reply)
""", 37),
    ("handed-by-keyword-to-a-helper", _MODEL + """
def continuation_score(model, tokens, start):
    with torch.no_grad():
        token_lp = per_token_logprobs(model(tokens)[:, :-1, :], tokens[:, 1:])
    return float(token_lp[:, start:].sum())

joined = torch.cat([context, reply], dim=1)
got = continuation_score(lm, tokens=joined, start=context.size(1))
""", 35),
]

NEAR_MISSES = [
    ("start-moved-back-by-one", _MODEL + """
def reply_logprob(model, first, second):
    ids = torch.cat((first, second), dim=-1)
    prompt_len = first.shape[-1]
    scores = per_token_logprobs(model(ids)[:, :-1], ids[:, 1:])
    return float(scores[:, prompt_len - 1:].sum())

got = reply_logprob(lm, context, reply)
"""),
    ("unshifted-logits-cut-at-the-prompt", _MODEL + """
def continuation_score(model, tokens, start):
    logits = model(tokens)
    token_lp = per_token_logprobs(logits[:, start - 1:-1], tokens[:, start:])
    return float(token_lp.sum())

joined = torch.cat([context, reply], dim=1)
got = continuation_score(lm, joined, context.size(1))
"""),
]


@pytest.mark.parametrize("name,code,line", FLAGGED, ids=[c[0] for c in FLAGGED])
def test_flagged_and_torch_leaves_out_the_first_token(name, code, line):
    found = [(f.line, f.code) for f in lint(textwrap.dedent(code))]
    assert (line, "GL007") in found, found
    scope = run_snippet(code)
    assert abs(scope["got"] - scope["want"]) > 1e-3


@pytest.mark.parametrize("name,code", NEAR_MISSES, ids=[c[0] for c in NEAR_MISSES])
def test_near_miss_is_silent_and_torch_agrees(name, code):
    assert [f for f in lint(textwrap.dedent(code)) if f.code == "GL007"] == []
    scope = run_snippet(code)
    assert abs(scope["got"] - scope["want"]) < 1e-4


def test_a_call_without_the_join_keeps_the_function_silent():
    # one caller hands a sequence that is not a prompt + completion join: the start is not known to be its length
    code = _MODEL + """
def continuation_score(model, tokens, start):
    token_lp = per_token_logprobs(model(tokens)[:, :-1, :], tokens[:, 1:])
    return float(token_lp[:, start:].sum())

joined = torch.cat([context, reply], dim=1)
a = continuation_score(lm, joined, context.size(1))
b = continuation_score(lm, reply, 1)
"""
    assert [f for f in lint(code) if f.code == "GL007"] == []
