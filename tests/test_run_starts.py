"""A mask of where runs of equal neighbours start (`first[1:] = x[1:] != x[:-1]`) picks one entry per run: of
values copied by repeat_interleave, one per value, so a write at the picks keeps every value (GL013 stays silent).
Another mask of the same copies may keep two of a run, and the write drops one: still reported. Each claim runs
in torch."""
import pytest

from .conftest import codes
from .snippets import call_run as run

torch = pytest.importorskip("torch")

PER_RAY = '''
import torch

def mark_first_hit(ridx):
    first = torch.ones_like(ridx, dtype=torch.int32)
    first[1:] = (ridx[1:] != ridx[:-1]).int()
    return first

def run():
    torch.manual_seed(0)
    hits = torch.tensor([2, 0, 1, 3, 0, 1])
    ridx = torch.repeat_interleave(torch.arange(6), hits * 4)
    boundary = MASK
    alpha = torch.rand(int(boundary.sum()), 1)
    out = torch.zeros(6, 1)
    out[ridx[boundary]] = alpha
    return out, alpha

if __name__ == "__main__":
    print(run())
'''


def test_the_first_of_each_run_is_no_repeat():
    code = PER_RAY.replace("MASK", "mark_first_hit(ridx.int()).bool()")
    assert codes(code) == []
    out, alpha = run(code)
    assert sorted(out[out != 0].tolist()) == sorted(alpha.flatten().tolist())  # every value kept


def test_another_mask_of_the_copies_is_still_reported():
    code = PER_RAY.replace("MASK", "torch.rand(ridx.shape[0]) > 0.5")
    assert "GL013" in codes(code)
    out, alpha = run(code)
    assert (out != 0).sum().item() < alpha.shape[0]  # two picks of one ray: one write is lost


def test_run_starts_of_tiled_copies_are_no_evidence_of_distinct_values():
    # `repeat` lays copies side by side ([0..5, 0..5]): each entry starts a run, and the picks repeat
    code = PER_RAY.replace("torch.repeat_interleave(torch.arange(6), hits * 4)", "torch.arange(6).repeat(2)") \
        .replace("MASK", "mark_first_hit(ridx.int()).bool()")
    assert "GL013" in codes(code)
    out, alpha = run(code)
    assert (out != 0).sum().item() < alpha.shape[0]
