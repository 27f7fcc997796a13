"""GL013 at a scatter whose repeated positions are all written one value loses nothing: known entry by entry
(the index and integer src both written out), or a 0/1 mask written at the ids it masks (SPLADE's lexical mask:
an id is written 0 and 1 only where it is both kept and masked). A repeat written two values is still
reported. Each claim runs in torch against a one-by-one loop."""
import textwrap

import pytest

from .conftest import lint
from .snippets import run_snippet

WRITTEN = """
import torch

ids = torch.tensor([[1, 1, 4], [2, 3, 3]])
vals = torch.tensor({VALUES})
out = torch.zeros(2, 5, dtype=torch.long).scatter(1, ids, vals)
expected = torch.zeros(2, 5, dtype=torch.long)
for r in range(2):
    for j in range(3):
        expected[r, int(ids[r, j])] = int(vals[r, j])
{CHECK}
"""

LEXICAL = """
import torch

def lexical_mask(input_ids, attention_mask, vocab_size):
    \"\"\"Args:
        input_ids (torch.Tensor): Token ids of shape (batch_size, seq_len).
        attention_mask (torch.Tensor): Mask of shape (batch_size, seq_len).
    \"\"\"
    token_mask = torch.zeros(input_ids.shape[0], vocab_size)
    weights = attention_mask.to(token_mask)
    return token_mask.scatter(1, input_ids, weights)

ids = torch.tensor([[3, 7, 9, 0], [4, 4, 12, 18], [21, 5, 0, 0]])
mask = (ids != 0).long()
out = lexical_mask(ids, mask, 30)
expected = torch.zeros(3, 30)
for r in range(3):
    for j in range(4):
        if mask[r, j]:
            expected[r, int(ids[r, j])] = 1.0
assert torch.equal(out, expected)
"""


def _gl013(code):
    return [v.line for v in lint(textwrap.dedent(code)) if v.code == "GL013"]


def test_repeats_written_one_value_each_stay_silent():
    code = WRITTEN.replace("{VALUES}", "[[2, 2, 1], [5, 3, 3]]").replace("{CHECK}", "assert torch.equal(out, expected)")
    assert _gl013(code) == []
    run_snippet(code)


def test_a_repeat_written_two_values_is_still_reported():
    code = WRITTEN.replace("{VALUES}", "[[2, 7, 1], [5, 3, 3]]").replace(
        "{CHECK}", "assert int(out[0, 1]) in (2, 7)  # one of the two writes to (0, 1) is gone")
    assert _gl013(code) == [6]
    run_snippet(code)


def test_a_mask_written_at_the_ids_it_masks_stays_silent():
    assert _gl013(LEXICAL) == []
    run_snippet(LEXICAL)



def _function_only(code: str) -> str:
    """The helper without its driver: nothing then says what the mask's values are but its name."""
    return code.split("\nids = ")[0] + "\n"


def test_a_mask_passed_in_by_name_reads_as_the_mask_cast_from_it():
    # the payload is the `attention_mask` parameter itself, not a local cast of it: the same 0/1 mask, and ids that
    # repeat among the kept positions write 1 each time
    code = LEXICAL.replace("    weights = attention_mask.to(token_mask)\n", "").replace(
        "token_mask.scatter(1, input_ids, weights)", "token_mask.scatter(1, input_ids, attention_mask)").replace(
        "mask = (ids != 0).long()", "mask = (ids != 0).float()")
    assert "weights" not in code
    assert _gl013(_function_only(code)) == []
    run_snippet(code)


def test_weights_passed_in_by_name_are_still_reported():
    code = LEXICAL.replace("    weights = attention_mask.to(token_mask)\n", "").replace(
        "token_mask.scatter(1, input_ids, weights)", "token_mask.scatter(1, input_ids, token_weights)").replace(
        "def lexical_mask(input_ids, attention_mask, vocab_size)", "def lexical_mask(input_ids, token_weights, vocab_size)"
    ).replace("attention_mask (torch.Tensor): Mask", "token_weights (torch.Tensor): Weights").replace("out = lexical_mask(ids, mask, 30)", "out = lexical_mask(ids, torch.tensor([[1.0, 2.0, 3.0, 4.0], [5.0, 6.0, 7.0, 8.0], [9.0, 1.0, 2.0, 3.0]]), 30)"
    ).split("expected = torch.zeros(3, 30)")[0] + "assert float(out[1, 4]) in (5.0, 6.0)  # one of the two writes to (1, 4) is gone\n"
    assert _gl013(_function_only(code)) == [10]
    run_snippet(code)
