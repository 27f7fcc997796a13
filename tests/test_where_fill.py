"""`torch.where(owned, local, torch.full_like(local, n))`: the fill of `full_like` is among the values wherever the
condition fails, so one-hot encoding them with n classes (experts owned by another rank marked with the count
itself) raises. `full_like`'s fill value is read as `full`'s is. Each claim runs in torch."""
import textwrap

import pytest

from .conftest import lint
from .snippets import run_snippet

torch = pytest.importorskip("torch")

SHARDED = """
import torch
import torch.nn.functional as F

def local_ids(top_k_index, rank, num_experts, world):
    num_local = num_experts // world
    local = top_k_index - rank * num_local
    owned = (local >= 0) & (local < num_local)
    return torch.where(owned, local, torch.full_like(local, {fill})), num_local

def expert_mask(top_k_index, rank, num_experts, world):
    ids, num_local = local_ids(top_k_index, rank, num_experts, world)
    return F.one_hot(ids, num_classes={classes})

top_k = torch.tensor([[0, 5], [6, 7], [2, 4]])
mask = expert_mask(top_k, 1, 8, 2)
"""


def _gl011_lines(code):
    return [v.line for v in lint(textwrap.dedent(code)) if v.code == "GL011"]


def test_a_fill_equal_to_the_class_count_is_reported_at_the_one_hot():
    code = SHARDED.replace("{fill}", "num_local").replace("{classes}", "num_local")
    assert _gl011_lines(code) == [13]
    with pytest.raises(RuntimeError, match="Class values must be smaller than num_classes"):
        run_snippet(code)


def test_one_more_class_for_the_fill_stays_silent():
    code = SHARDED.replace("{fill}", "num_local").replace("{classes}", "num_local + 1") + textwrap.dedent("""
    assert mask.shape == (3, 2, 5)
    assert mask[0, 0, 4] == 1 and mask[0, 1, 1] == 1  # expert 0 is remote (slot 4), expert 5 is local 1
    """)
    assert _gl011_lines(code) == []
    run_snippet(code)
