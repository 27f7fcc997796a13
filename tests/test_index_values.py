"""Index values the code makes out of range: padding filled in through where/new_full/cat, values
clamped to a table's size by `x[x > n] = n`, and advanced indexing `table[idx]` as a site for them.
Every claim a finding makes is run in torch here."""
import textwrap

import pytest

from .conftest import lint


def findings(code: str):
    return [(f.line, f.code) for f in lint(code)]


def run(code: str, torch):
    scope = {"__name__": "snippet"}
    exec(textwrap.dedent(code), scope)  # noqa: S102 - the snippet under test
    return scope


PADDED_BY_WHERE = """
import torch

def pool(values, groups, is_pad, count):
    groups = torch.where(is_pad, torch.full_like(groups, -1), groups)
    out = values.new_zeros(values.size(0), count, values.size(2))
    return out.scatter_add_(1, groups.unsqueeze(-1).expand_as(values), values)
"""


def test_padding_filled_in_by_where_reaches_scatter(torch):
    assert findings(PADDED_BY_WHERE) == [(7, "GL011")]
    pool = run(PADDED_BY_WHERE, torch)["pool"]
    with pytest.raises(RuntimeError, match="index -1 is out of bounds"):
        pool(torch.randn(2, 5, 3), torch.randint(0, 4, (2, 5)), torch.arange(5).expand(2, 5) >= 3, 4)


def test_padding_reaches_a_helper_through_its_caller(torch):
    code = """
    import torch

    def accumulate(feats, slots, n_slots):
        table = feats.new_zeros(feats.size(0), n_slots)
        return table.scatter_add_(1, slots, feats)

    def run(feats, slots, dropped, n_slots):
        slots = torch.where(dropped, -1, slots)
        return accumulate(feats, slots, n_slots)
    """
    assert findings(code) == [(6, "GL011")]
    fn = run(code, torch)["run"]
    with pytest.raises(RuntimeError, match="index -1 is out of bounds"):
        fn(torch.ones(2, 4), torch.zeros(2, 4, dtype=torch.long), torch.eye(2, 4, dtype=torch.bool), 3)


def test_where_that_replaces_padding_with_zeros_stays_silent():
    code = """
    import torch

    def logps(logits, labels, ignore_id=-100):
        keep = labels.ne(ignore_id)
        safe = torch.where(keep, labels, torch.zeros_like(labels))
        return logits.log_softmax(-1).gather(-1, safe[..., None])[..., 0] * keep

    out = logps(torch.randn(2, 3, 5), torch.tensor([[1, -100, 2], [0, 1, -100]]))
    """
    assert findings(code) == []


MISSING_AS_MINUS_ONE = """
import torch

def nearest_labels(dists, labels, k):
    ids = dists.topk(k, dim=1, largest=False).indices
    ids = torch.where(dists.gather(1, ids) < 1.0, ids, -1)
    return labels[ids]
"""


def test_minus_one_ids_wrap_in_advanced_indexing(torch):
    found = lint(MISSING_AS_MINUS_ONE)
    assert [(f.line, f.code) for f in found] == [(7, "GL010")]
    assert "-1 silently reads the last entry of `labels`" in found[0].message
    fn = run(MISSING_AS_MINUS_ONE, torch)["nearest_labels"]
    labels = torch.tensor([10, 11, 12])
    got = fn(torch.tensor([[0.5, 5.0, 6.0]]), labels, 2)
    assert got.tolist() == [[10, 12]]  # the missing neighbour read the last label, no error


def test_padding_handled_around_the_lookup_stays_silent():
    code = """
    import torch

    def nearest_labels(dists, labels, k):
        ids = dists.topk(k, dim=1, largest=False).indices
        ids = torch.where(dists.gather(1, ids) < 1.0, ids, -1)
        found = labels[ids]
        return found.masked_fill(ids < 0, -1)
    """
    assert findings(code) == []


CLAMPED_TO_TABLE_SIZE = """
import torch

def cap(counts, limit):
    counts = counts.clone()
    counts[counts > limit] = limit
    return counts

class HopBias(torch.nn.Module):
    def __init__(self, max_hops, width):
        super().__init__()
        self.max_hops = max_hops
        self.bias = torch.nn.Parameter(torch.zeros(max_hops, width))

    def forward(self, hops):
        return self.bias[cap(hops.long(), self.max_hops)]

layer = HopBias(max_hops=4, width=3)
if __name__ == "__main__":
    print(layer(torch.tensor([0, 2, 7])))
"""


def test_values_clamped_to_the_table_size_read_one_past_its_end(torch):
    found = lint(CLAMPED_TO_TABLE_SIZE)
    assert [(f.line, f.code) for f in found] == [(16, "GL011")]
    assert "values that include 4" in found[0].message and "has size 4, valid positions 0 to 3" in found[0].message
    layer = run(CLAMPED_TO_TABLE_SIZE, torch)["layer"]
    with pytest.raises(IndexError, match="index 4 is out of bounds for dimension 0 with size 4"):
        layer(torch.tensor([0, 2, 7]))


def test_values_clamped_to_the_last_row_stay_silent(torch):
    code = CLAMPED_TO_TABLE_SIZE.replace("self.max_hops)]", "self.max_hops - 1)]")
    assert findings(code) == []
    layer = run(code, torch)["layer"]
    assert layer(torch.tensor([0, 2, 7])).shape == (3, 3)


def test_padding_in_a_scripts_loop_is_not_flagged():
    code = """
    import torch
    target = torch.randint(0, 6, (20,))
    target[3] = -100
    dist = torch.zeros(20, 6)
    for i in range(20):
        if target[i] == -100:
            continue
        dist[i, target[i]] = 1.0
    """
    assert findings(code) == []
