"""GL008 for masks and narrow casts reaching an index slot: comparisons and predicates in their method
and function spellings (`ids.ne(pad)`, `torch.isnan(x)`, `torch.isin(ids, stop)`) give bool tensors, and
`.type(torch.uint8)` / `.byte()` give uint8 ones even on a tensor whose shape is unknown; a NumPy random
generator's draws (`np.random.default_rng(0).integers(..., dtype=np.uint8)`) keep their dtype in
`torch.from_numpy`.

Each program runs in torch first (the oracle: the call raises on the bool/uint8 index), then through
the linter: reported at the call; the same program with `.long()` on the index runs and is silent.
"""
import textwrap

import pytest

from .conftest import lint
from .snippets import expected_lines

# {cast} is "" for the mistake and ".long()" for the fix; the call carries `# expect`
PROGRAMS = {
    "method-comparison-in-a-module": """
import torch
import torch.nn as nn


class PadPicker(nn.Module):
    def __init__(self, pad_id: int):
        super().__init__()
        self.pad_id = pad_id

    def forward(self, scores, token_ids):
        keep = token_ids.ne(self.pad_id)
        return scores.gather(1, keep{cast})  # expect


picker = PadPicker(0)
picker(torch.randn(2, 5), torch.tensor([[0, 3, 1], [2, 0, 0]]))
""",
    "functional-predicate-in-a-helper": """
import torch


def pick_invalid(table, values):
    return torch.take_along_dim(table, torch.isnan(values){cast}, dim=1)  # expect


pick_invalid(torch.randn(3, 4), torch.tensor([[0.0, float("nan")]] * 3))
""",
    "isin-of-stop-ids": """
import torch


def stop_scores(logits, ids, stop_ids):
    hit = torch.isin(ids, stop_ids)
    return logits.gather(-1, hit{cast})  # expect


stop_scores(torch.randn(2, 7), torch.tensor([[1, 4], [6, 2]]), torch.tensor([4, 6]))
""",
    "legacy-type-cast-of-an-unknown-tensor": """
import torch


def per_pixel(log_probs, label_mask):
    labels = label_mask.type(torch.uint8){cast}
    return log_probs.gather(1, labels.unsqueeze(1))  # expect


per_pixel(torch.randn(2, 3, 4, 4).log_softmax(1), torch.randint(0, 3, (2, 4, 4)))
""",
    "byte-cast-into-index-select": """
import torch


def rows_of(features, row_ids):
    return features.index_select(0, row_ids.byte(){cast})  # expect


rows_of(torch.randn(5, 2), torch.tensor([4, 0, 2]))
""",
    "numpy-generator-uint8-labels": """
import numpy as np
import torch
import torch.nn.functional as F


def pixel_nll(logits):
    rng = np.random.default_rng(3)
    target = torch.from_numpy(rng.integers(0, 3, size=(2, 4, 4), dtype=np.uint8)){cast}
    return -F.log_softmax(logits, dim=1).gather(1, target.unsqueeze(1))  # expect


pixel_nll(torch.randn(2, 3, 4, 4))
""",
}


def _program(name: str, cast: str) -> str:
    return textwrap.dedent(PROGRAMS[name]).replace("{cast}", cast)


@pytest.mark.parametrize("name", sorted(PROGRAMS))
def test_a_mask_or_narrow_cast_as_index_is_reported_and_torch_raises(name, torch):
    bad = _program(name, "")
    found = [f for f in lint(bad) if f.code == "GL008"]
    assert [f.line for f in found] == expected_lines(bad), lint(bad)
    assert "bool" in found[0].message or "uint8" in found[0].message
    with pytest.raises(RuntimeError, match="(?i)expected dtype|dtype of indices"):
        exec(compile(bad, "<program>", "exec"), {"__name__": "__main__"})


@pytest.mark.parametrize("name", sorted(PROGRAMS))
def test_the_long_index_is_silent_and_torch_runs_it(name, torch):
    good = _program(name, ".long()")
    assert [f.code for f in lint(good)] == []
    exec(compile(good, "<program>", "exec"), {"__name__": "__main__"})


@pytest.mark.parametrize("code", [
    # a mask used as a mask: boolean indexing and masked_fill take bool
    """
    import torch
    def keep_real(scores, ids):
        return scores[ids.ne(0)], scores.masked_fill(torch.isnan(scores), 0.0)
    """,
    # the mask chooses between ids, and the chosen ids index
    """
    import torch
    def clipped(scores, ids):
        return scores.gather(1, torch.where(ids.gt(0), ids, 0))
    """,
    # counting a mask gives int64
    """
    import torch
    def last_real(hidden, ids):
        n = ids.ne(0).sum(dim=1, keepdim=True) - 1
        return hidden.gather(1, n)
    """,
])
def test_masks_used_as_masks_are_silent(code, torch):
    assert [f.code for f in lint(code) if f.code == "GL008"] == []
