"""Two general facts behind a popularity count that loses interactions:
- `x[ids, :] = x[ids, :] + 1` writes whole rows at ids, as `x[ids] = x[ids] + 1` does: a repeated id is
  written once;
- `torch.multinomial(p, n, replacement=True)` draws can repeat; without replacement they cannot.
Each claim runs in torch."""
import pytest

from .conftest import lint
from .snippets import call_run as run

torch = pytest.importorskip("torch")

COUNTS = '''
import torch

def count_items(counts, items):
    counts[items, :] = counts[items, :] + 1
    return counts

def run():
    g = torch.Generator().manual_seed(0)
    items = torch.multinomial(torch.linspace(3.0, 0.1, 20), 64, replacement=True, generator=g)
    return count_items(torch.zeros(20, 1, dtype=torch.long), items), items

if __name__ == "__main__":
    run()
'''


def test_rows_counted_at_repeated_draws_lose_counts():
    found = lint(COUNTS)
    assert [(f.code, f.line) for f in found] == [("GL013", 5)]
    assert "index_put_((items,)" in found[0].message
    counts, items = run(COUNTS)
    assert int(counts.sum()) < 64 == items.numel()  # repeated items counted once per batch


@pytest.mark.parametrize("old, new", [
    ("counts[items, :] = counts[items, :] + 1", "counts[items] = counts[items] + 1"),
    ("counts[items, :] = counts[items, :] + 1", "counts[items, ...] = counts[items, ...] + 1"),
])
def test_other_spellings_keep_the_finding(old, new):
    code = COUNTS.replace(old, new)
    assert [f.code for f in lint(code)] == ["GL013"]
    counts, items = run(code)
    assert int(counts.sum()) < 64


def test_draws_without_replacement_are_distinct():
    code = COUNTS.replace("64, replacement=True", "16, replacement=False")
    assert lint(code) == []
    counts, items = run(code)
    assert int(counts.sum()) == 16 == len(set(items.tolist()))


def test_the_accumulating_write_is_left_alone():
    fixed = COUNTS.replace("counts[items, :] = counts[items, :] + 1",
                           "counts.index_put_((items,), torch.ones(len(items), 1, dtype=torch.long), accumulate=True)")
    assert lint(fixed) == []
    counts, items = run(fixed)
    assert int(counts.sum()) == 64


def test_a_column_key_is_not_read_as_rows():
    # `x[:, ids]` writes columns: the rows-only fix would not fit, and nothing is said here
    code = COUNTS.replace("counts[items, :] = counts[items, :] + 1", "counts[:, items] = counts[:, items] + 1") \
        .replace("torch.zeros(20, 1, dtype=torch.long)", "torch.zeros(1, 20, dtype=torch.long)")
    assert lint(code) == []
