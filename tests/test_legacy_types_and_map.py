"""Legacy tensor types and `map`: `torch.IntTensor(ids)` is int32 whatever data it is given, and ints given
to a legacy type are sizes (`torch.LongTensor(3, 1)` is an uninitialised [3, 1], not a 0-d tensor);
`map(f, items)` is `(f(item) for item in items)`; `torch.vstack` of such a list has the pieces' dtype.
Each claim runs in torch."""
import textwrap

import pytest

from .conftest import lint
from .snippets import run_snippet

RESPONSES = """
import torch
import torch.nn.functional as F

def logprobs_of_labels(logits, labels):
    # logits: [B, T, V], labels: [B, T]
    return torch.take_along_dim(logits.log_softmax(-1), labels.unsqueeze(-1), dim=-1).squeeze(-1)

def batch_responses(token_lists, pad_id):
    outputs = {MAKE}
    width = max(map(len, outputs))
    outputs = [F.pad(o, (0, width - len(o)), value=pad_id) for o in outputs]
    return torch.vstack(outputs)

if __name__ == "__main__":
    responses = batch_responses([[3, 4, 5, 1], [6, 1]], 0)
    out = logprobs_of_labels(torch.randn(2, 4, 8), responses)
"""


def _found(code):
    return [(v.line, v.code) for v in lint(textwrap.dedent(code))]


@pytest.mark.parametrize("make", ["list(map(torch.IntTensor, token_lists))",
                                  "[torch.IntTensor(t) for t in token_lists]",
                                  "[torch.tensor(t, dtype=torch.int32) for t in token_lists]"])
def test_int32_rows_stacked_reach_take_along_dim(make):
    code = RESPONSES.replace("{MAKE}", make)
    assert (7, "GL008") in _found(code)
    with pytest.raises(RuntimeError, match="dtype of indices should be Long"):
        run_snippet(code)


@pytest.mark.parametrize("make", ["list(map(torch.LongTensor, token_lists))",
                                  "[torch.LongTensor(t) for t in token_lists]"])
def test_int64_rows_stacked_are_silent(make):
    code = RESPONSES.replace("{MAKE}", make)
    assert [c for _, c in _found(code) if c == "GL008"] == []
    run_snippet(code)


SIZES = """
import torch

scores = torch.randn(3, 4)
picks = torch.LongTensor(3, 1).zero_()
best = scores.gather(1, picks)
assert best.shape == (3, 1)
"""


def test_ints_given_to_a_legacy_type_are_sizes():
    assert _found(SIZES) == []
    run_snippet(SIZES)


def test_a_legacy_type_of_the_wrong_rank_is_still_reported():
    code = SIZES.replace("torch.LongTensor(3, 1)", "torch.LongTensor(3)").replace("assert best.shape == (3, 1)\n", "")
    assert (6, "GL001") in _found(code)
    with pytest.raises(RuntimeError, match="same number of dimensions"):
        run_snippet(code)
