"""Sizes that add up: a cat of [B, N, D] and [B, M, D] along dim 1 is [B, M+N, D], and F.pad of one entry at
the start of T is T+1. Such a size compares with its parts: `T+1` is larger than `T` whatever T is."""
import pytest

from .conftest import codes, lint
from .snippets import call_run as run

PADDED = """
import torch
import torch.nn.functional as F


def token_log_probs(logits, ids, bos):
    # logits: [B, T, V], ids: [B, T]
    with_bos = F.pad(ids, (1, 0), value=bos)
    return logits.log_softmax(-1).gather(2, with_bos.unsqueeze(-1)).squeeze(-1)


def run():
    torch.manual_seed(0)
    return token_log_probs(torch.randn(2, 5, 7), torch.randint(0, 7, (2, 5)), 0)
"""


def test_a_padded_index_is_one_longer_than_the_logits(torch):
    findings = lint(PADDED)
    assert [f.code for f in findings] == ["GL003"]
    assert "T+1" in findings[0].message
    with pytest.raises(RuntimeError, match="Size does not match"):
        run(PADDED)
    fixed = PADDED.replace("with_bos.unsqueeze(-1)", "with_bos[:, :-1].unsqueeze(-1)")
    assert codes(fixed) == []
    assert run(fixed).shape == (2, 5)


JOINED = """
import torch


def pick(a, b, idx):
    # a: [B, N, D], b: [B, M, D], idx: [B, N]
    joined = torch.cat([a, b], dim=1)
    return joined.gather(1, idx.unsqueeze(-1))


def run():
    return pick(torch.randn(2, 3, 4), torch.randn(2, 5, 4), torch.zeros(2, 3, dtype=torch.long))
"""


def test_a_joined_dim_is_the_sum_of_its_pieces(torch):
    """[B, M+N, D] in the function's own analysis, [B, 8, D] under the caller's 3 and 5 rows, as torch makes it."""
    from gather_lint.static.analyzer import lint_source
    seen = []
    lint_source(JOINED, "<test>", observe=lambda line, site, unknown: seen.append(str(site.input.shape)))
    assert seen == ["[B, M+N, D]", "[B, 8, D]"]
    assert torch.cat([torch.randn(2, 3, 4), torch.randn(2, 5, 4)], dim=1).shape == (2, 8, 4)
    assert run(JOINED).shape == (2, 3, 1)
