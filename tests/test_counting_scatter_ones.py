"""GL013 for counts built with a non-accumulating scatter: ones scattered into a zeros buffer named as
a count hold 1 per hit position instead of the number of hits; and the pigeonhole case, where an index
has more entries along the written dim than the buffer has positions, so positions certainly repeat."""
import pytest

from .conftest import lint

MODULE_DRIVER = '''
import torch
import torch.nn as nn
from jaxtyping import Float, Int
from torch import Tensor


class Gate(nn.Module):
    def __init__(self, width: int, n_experts: int, k: int):
        super().__init__()
        self.score = nn.Linear(width, n_experts)
        self.n_experts = n_experts
        self.k = k

    def load(self, picks: Int[Tensor, "rows k"]) -> Float[Tensor, "experts"]:
        expert_counts = torch.zeros(self.n_experts)
        flat = picks.flatten()
        expert_counts.scatter_(0, flat, torch.ones_like(flat, dtype=expert_counts.dtype))
        return expert_counts / flat.numel()

    def forward(self, h: Float[Tensor, "rows width"]):
        picks = self.score(h).topk(self.k, dim=-1).indices
        return self.load(picks)


if __name__ == "__main__":
    gate = Gate(8, 4, 2)
    share = gate(torch.randn(32, 8))
'''

FUNCTION_BUCKETS = '''
import torch


def histogram(values, edges):
    # values: [N]
    # edges: [K]
    bins = torch.bucketize(values, edges)
    hist = torch.zeros(edges.shape[0] + 1)
    hist.scatter_(0, bins, 1.0)
    return hist
'''

CONSTRUCTORS_ROWS = '''
import torch

labels = torch.randint(0, 5, (3, 20))
num_per_class = torch.zeros(3, 5)
num_per_class.scatter_(1, labels, torch.ones(3, 20))
'''

CROWDED_VALUES = '''
import torch


def last_scores(scores, slots):
    """
    Args:
        scores (Tensor): (batch, 10)
        slots (LongTensor): (batch, 10)
    """
    table = torch.zeros(scores.shape[0], 4)
    table.scatter_(1, slots, scores)
    return table


def run():
    return last_scores(torch.randn(2, 10), torch.randint(0, 4, (2, 10)))
'''


@pytest.mark.parametrize("code", [MODULE_DRIVER, FUNCTION_BUCKETS, CONSTRUCTORS_ROWS],
                         ids=["module-driver-pigeonhole", "function-bucketize", "constructors-randint"])
def test_counts_scattered_as_ones(code):
    found = [f for f in lint(code) if f.code == "GL013"]
    assert len(found) == 1, [(f.code, f.message) for f in lint(code)]
    assert "holds 1" in found[0].message and "scatter_add_" in found[0].message


def test_more_entries_than_positions_overwrite():
    found = [f for f in lint(CROWDED_VALUES) if f.code == "GL013"]
    assert len(found) == 1, [(f.code, f.message) for f in lint(CROWDED_VALUES)]
    assert "10 entries for 4 positions" in found[0].message


@pytest.mark.parametrize("code", [
    # a presence mask: ones into a buffer that is not a count
    '''
import torch
ids = torch.randint(0, 5, (20,))
seen = torch.zeros(5)
seen.scatter_(0, ids, 1.0)
''',
    # counting right
    '''
import torch
ids = torch.randint(0, 5, (20,))
counts = torch.zeros(5)
counts.scatter_add_(0, ids, torch.ones(20))
''',
    # top-k of one row: distinct positions, fewer than the buffer holds
    '''
import torch
scores = torch.randn(10)
counts = torch.zeros(10)
counts.scatter_(0, scores.topk(3).indices, 1.0)
''',
    # sizes only named: more entries than positions is not certain
    '''
import torch
def f(picks, n_experts: int):
    # picks: [tokens]
    counts = torch.zeros(n_experts)
    counts.scatter_(0, picks, 1.0)
    return counts
''',
])
def test_other_writes_stay_silent(code):
    assert "GL013" not in [f.code for f in lint(code)]


def test_torch_caps_counts_at_one(torch):
    """The message's claim: scatter_ of ones leaves 1 at a position hit k times; scatter_add_ counts k."""
    ids = torch.tensor([2, 0, 2, 2, 1, 0])
    capped = torch.zeros(4).scatter_(0, ids, torch.ones(6))
    counted = torch.zeros(4).scatter_add_(0, ids, torch.ones(6))
    assert capped.tolist() == [1.0, 1.0, 1.0, 0.0]
    assert counted.tolist() == [2.0, 1.0, 3.0, 0.0]
    assert torch.equal(counted, torch.bincount(ids, minlength=4).float())


def test_torch_drops_writes_when_entries_outnumber_positions(torch):
    scores = torch.arange(10.0).view(1, 10)
    slots = torch.tensor([[0, 1, 2, 3, 0, 1, 2, 3, 0, 1]])
    table = torch.zeros(1, 4).scatter_(1, slots, scores)
    assert table.sum() < scores.sum()  # 10 writes, 4 cells: at least 6 values lost


def test_index_copy_with_more_ids_than_rows():
    code = '''
import torch
rows = torch.randn(12, 3)
slot = torch.tensor([0, 1, 2, 3, 4, 0, 1, 2, 3, 4, 0, 1])
table = torch.zeros(5, 3)
table.index_copy_(0, slot, rows)
'''
    found = [f for f in lint(code) if f.code == "GL013"]
    assert len(found) == 1 and "12 entries for 5 positions" in found[0].message, [f.message for f in lint(code)]


def test_torch_index_copy_keeps_one_row_per_slot(torch):
    rows = torch.arange(12.0).view(12, 1).expand(12, 3)
    slot = torch.tensor([0, 1, 2, 3, 4, 0, 1, 2, 3, 4, 0, 1])
    table = torch.zeros(5, 3).index_copy_(0, slot, rows)
    summed = torch.zeros(5, 3).index_add_(0, slot, rows)
    assert not torch.equal(table, summed)  # each slot keeps one of its rows
