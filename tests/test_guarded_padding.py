"""GL011 after a guard that tests for padding: `has_pad = (ids == pad_id).any(-1)`, then `if not has_pad.any():`
runs its body with no pad among the ids (and `if has_pad.any(): raise ...` the rest of the function), so a lookup
there reads no -1. Each claim runs in torch: the guarded lookups read what a loop reads, the unguarded one raises."""
import textwrap

import pytest

from .conftest import lint
from .snippets import run_snippet

torch = pytest.importorskip("torch")

DECODE = """
import torch
import torch.nn.functional as F

def mask_after_eos(ids, eos_id, pad_id):
    after_eos = (ids == eos_id).cumsum(dim=-1) > 0
    return ids.masked_fill(after_eos, pad_id)

def decode(ids, table, eos_id, pad_id=-1):
    ids = mask_after_eos(ids, eos_id, pad_id)
    has_pad = (ids == pad_id).any(dim=-1)
{guard}

table = torch.randn(16, 4)
ids = torch.tensor([[3, 5, 7, 9], [2, 4, 6, 8]])
out = decode(ids, table, eos_id={eos})
"""

BODY = """    if not has_pad.any():
        return F.embedding(ids, table)
    return [F.embedding(row[row != pad_id], table) for row in ids]"""

RAISED = """    if has_pad.any():
        raise ValueError("padding reached the decoder")
    return F.embedding(ids, table)"""

UNGUARDED = """    return F.embedding(ids, table)"""


def _gl011_lines(code):
    return [v.line for v in lint(textwrap.dedent(code)) if v.code == "GL011"]


def test_the_body_of_a_guard_that_finds_no_padding_reads_none():
    code = DECODE.replace("{guard}", BODY).replace("{eos}", "11") + textwrap.dedent("""
    assert torch.equal(out, table[ids])
    """)
    assert _gl011_lines(code) == []
    run_snippet(code)


def test_the_path_after_a_guard_that_raises_on_padding_reads_none():
    code = DECODE.replace("{guard}", RAISED).replace("{eos}", "11") + textwrap.dedent("""
    assert torch.equal(out, table[ids])
    """)
    assert _gl011_lines(code) == []
    run_snippet(code)


def test_the_lookup_without_a_guard_is_still_reported():
    code = DECODE.replace("{guard}", UNGUARDED).replace("{eos}", "7")
    assert _gl011_lines(code) == [12]
    with pytest.raises(IndexError, match="index out of range"):
        run_snippet(code)
