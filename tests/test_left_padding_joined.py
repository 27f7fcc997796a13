"""GL024 through `torch.cat([prompt_ids, response_ids], dim=1)`: a prompt batch padded on the left keeps its padding
before real tokens once responses are appended, so the count of real tokens minus one is no row's last real
position. Each claim runs in torch: the reported read takes padding or an earlier token, the silent one reads the
last real token of every row."""
import textwrap

import pytest

from .conftest import lint
from .snippets import run_snippet

torch = pytest.importorskip("torch")

ROLLOUT = """
import torch

def left_pad(prompts, pad_id):
    width = max(len(p) for p in prompts)
    return torch.tensor([[pad_id] * (width - len(p)) + p for p in prompts])

def append_responses(prompt_ids, responses, pad_id):
    width = max(len(r) for r in responses)
    tail = torch.tensor([r + [pad_id] * (width - len(r)) for r in responses])
    return torch.cat([prompt_ids, tail], dim=1)

def last_values(values_seq, gen_out, pad_id):
    mask = (gen_out != pad_id).long()
    last = {last}
    return values_seq[torch.arange(values_seq.size(0)), last]

prompts = [[5, 9, 14, 3], [7, 21], [33, 4, 8]]
responses = [[11, 2], [17, 25, 40, 2], [19, 2]]
gen_out = append_responses(left_pad(prompts, 0), responses, 0)
values_seq = torch.arange(24.0).view(3, 8)
values = last_values(values_seq, gen_out, 0)
reference = torch.stack([values_seq[b, max(j for j, t in enumerate(row) if t != 0)]
                         for b, row in enumerate(gen_out.tolist())])
"""


def _gl024_lines(code):
    return [v.line for v in lint(textwrap.dedent(code)) if v.code == "GL024"]


def test_counts_minus_one_after_appending_to_a_left_padded_prompt_is_reported():
    code = ROLLOUT.replace("{last}", "mask.sum(dim=1) - 1")
    assert _gl024_lines(code) == [16]
    scope = run_snippet(code)
    assert not torch.equal(scope["values"], scope["reference"])


def test_the_last_real_position_of_each_row_stays_silent():
    code = ROLLOUT.replace("{last}", "mask.size(1) - 1 - mask.flip(1).argmax(1)")
    assert _gl024_lines(code) == []
    scope = run_snippet(code)
    assert torch.equal(scope["values"], scope["reference"])
