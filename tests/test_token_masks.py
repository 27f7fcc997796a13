"""GL007: per-token scores of the next tokens (`tokens[:, 1:]`) paired with a mask made from the same tokens
at the unshifted positions, multiplied or cut together in one statement: each score meets the flag of the
token before it."""
import textwrap

import pytest

from .conftest import lint

HELPER_AND_CUT = '''
import torch
import torch.nn.functional as F


def token_logprobs(logits, targets):
    logp = F.log_softmax(logits, dim=-1)
    return logp.gather(-1, targets.unsqueeze(-1)).squeeze(-1)


class Scorer:
    def __init__(self, policy, pad_id):
        self.policy, self.pad_id = policy, pad_id

    def response_terms(self, prompt, response):
        seq = torch.cat([prompt, response], dim=1)
        real = seq.ne(self.pad_id).float()
        logits = self.policy(seq)
        per_token = token_logprobs(logits[:, :-1], seq[:, 1:])
        lo = prompt.size(1) - 1
        hi = lo + response.size(1)
        {CUT}
        return (lp * keep).sum(-1) / keep.sum(-1)
'''

INLINE = '''
import torch

PAD = 0


def masked_nll(model, ids):
    logits = model(ids)
    token_lp = logits[:, :-1].log_softmax(-1).gather(-1, ids[:, 1:].unsqueeze(-1)).squeeze(-1)
    return -(token_lp * {MASK}).sum() / {MASK}.sum()
'''


def _found(code):
    return [(f.code, f.line) for f in lint(code)]


def _line_of(code, text):
    return next(i for i, line in enumerate(textwrap.dedent(code).splitlines(), 1) if text in line)


@pytest.mark.parametrize("cut, fires", [
    ("lp, keep = per_token[:, lo:hi], real[:, lo:hi]", True),
    ("lp, keep = per_token[:, lo:hi], real[:, lo + 1:hi + 1]", False),
    ("keep, lp = real[:, 1:][:, lo:hi], per_token[:, lo:hi]", False),
])
def test_scores_and_a_token_mask_cut_together(cut, fires):
    code = HELPER_AND_CUT.replace("{CUT}", cut)
    assert (_found(code) == [("GL007", _line_of(code, cut[:12]))]) == fires, cut


@pytest.mark.parametrize("cut, fires", [
    ("lp = per_token[:, lo:hi]\n        keep = real[:, lo:hi]", True),
    ("lp = per_token[:, lo:hi]\n        keep = real[:, lo + 1:hi + 1]", False),
])
def test_scores_and_a_token_mask_cut_apart_then_multiplied(cut, fires):
    code = HELPER_AND_CUT.replace("{CUT}", cut)
    assert (_found(code) == [("GL007", _line_of(code, "return (lp * keep)"))]) == fires, cut


@pytest.mark.parametrize("mask, fires", [
    ("(ids[:, 1:] != PAD).float()", False),
    ("(ids != PAD)[:, 1:].float()", False),
    # the flags of the inputs the scores were predicted at, as an attention mask cut [:, :-1] is read
    ("(ids[:, :-1] != PAD).float()", False),
])
def test_scores_times_a_mask_of_the_same_tokens(mask, fires):
    code = INLINE.replace("{MASK}", mask)
    assert (_found(code) == [("GL007", _line_of(code, "return -(token_lp"))]) == fires, mask


def test_torch_mask_cut_at_the_score_positions_counts_the_wrong_tokens(torch):
    torch.manual_seed(0)
    seq = torch.tensor([[5, 6, 7, 8, 0, 0]])  # prompt 5 6, response 7 8, right padding
    per_token = torch.randn(1, 5)  # per_token[:, t] scores seq[:, t + 1]
    real = seq.ne(0).float()
    lo, hi = 1, 5  # the response's scores: tokens 2.. of seq
    wrong = real[:, lo:hi]  # flags of tokens 1..4: the prompt's last token counts, the last response one does not
    right = real[:, lo + 1:hi + 1]
    assert wrong.tolist() == [[1.0, 1.0, 1.0, 0.0]] and right.tolist() == [[1.0, 1.0, 0.0, 0.0]]
    assert not torch.allclose((per_token[:, lo:hi] * wrong).sum(), (per_token[:, lo:hi] * right).sum())
