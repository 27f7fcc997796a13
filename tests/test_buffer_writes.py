"""GL011 through an integer buffer of zeros written in a loop: the buffer holds the zeros and what each write
put in, so ids that reach one past a table still do once collated into the buffer. Each claim runs in torch:
the reported program raises at the lookup, the silent ones read what a loop reads."""
import textwrap

from .conftest import lint
from .snippets import run_snippet

COLLATE = """
import torch

def bucket_ids(x, n):
    # x: (K,) scores in [0, 1] after the clamp
    return (x.clamp(0.0, 1.0) * {scale}).long()

def collate(rows, n):
    width = max(r.size(0) for r in rows)
    ids = torch.zeros(len(rows), width, dtype=torch.long)
    for b, r in enumerate(rows):
        ids[b, :r.size(0)] = {written}
    return ids

def lookup(table, rows):
    ids = collate(rows, table.size(0))
    return table[ids]

table = torch.randn(10, 3)
rows = [torch.tensor([0.2, 1.4, 0.7]), torch.tensor([0.95, -0.1])]
picked = lookup(table, rows)
"""


def _gl011_lines(code):
    return [v.line for v in lint(textwrap.dedent(code)) if v.code == "GL011"]


def test_ids_that_reach_the_table_size_are_reported_after_the_buffer():
    code = COLLATE.replace("{scale}", "n").replace("{written}", "bucket_ids(r, n)")
    assert _gl011_lines(code) == [17]
    import pytest
    with pytest.raises(IndexError, match="out of bounds"):
        run_snippet(code)


def test_ids_within_the_table_stay_silent_after_the_buffer():
    code = COLLATE.replace("{scale}", "(n - 1)").replace("{written}", "bucket_ids(r, n)") + textwrap.dedent("""
    for b, r in enumerate(rows):
        for k, v in enumerate(r.tolist()):
            assert torch.equal(picked[b, k], table[int(min(max(v, 0.0), 1.0) * 9)])
    """)
    assert _gl011_lines(code) == []
    run_snippet(code)


def test_a_write_of_unknown_values_leaves_the_buffer_unknown():
    # the first write is bounded, the second is not: nothing is claimed of the buffer
    code = COLLATE.replace("{scale}", "n").replace(
        "{written}", "bucket_ids(r, n)\n        ids[b, :r.size(0)] = (r.abs() * 3).long()") + textwrap.dedent("""
    assert picked.shape == (2, 3, 3)
    """)
    assert _gl011_lines(code) == []
    run_snippet(code)
