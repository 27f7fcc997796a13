"""Two facts that carry known values further: `starts, ends = spans.unbind(-1)` (or `.select(-1, k)`) of a
tensor known entry by entry gives each piece its own entries, so `ends + 1` one past the sequence is seen at
the gather; and a helper called from `__init__` runs with the constructor's facts, so a schedule built by
`make_betas(n)` in `__init__` has n entries in every method. Each claim runs in torch: the reported lookups
raise, their fixed forms and the sliced pieces read what a loop reads."""
import textwrap

import pytest

from .conftest import lint
from .snippets import run_snippet

SPAN_ENDS = """
import torch

def backward_ends(seq, spans):
    # seq: (batch, seq_len, dim); spans: (batch, num_spans, 2) inclusive [start, end]
    starts, ends = spans.{split}
    after = ends + {step}
    return seq.gather(1, after.unsqueeze(-1).expand(-1, -1, seq.size(-1)))

seq = torch.randn(2, 7, 4)
spans = torch.tensor([[[0, 2], [3, 6]], [[1, 1], [2, 4]]])
out = backward_ends(seq, spans)
"""

SPLITS = ["unbind(-1)", "unbind(dim=2)", "select(-1, 0), spans.select(-1, 1)"]


def _codes(code):
    return [(v.code, v.line) for v in lint(textwrap.dedent(code))]


@pytest.mark.parametrize("split", SPLITS)
def test_one_past_the_last_span_end_is_reported_out_of_range(split):
    code = SPAN_ENDS.replace("{split}", split).replace("{step}", "1")
    assert ("GL011", 8) in _codes(code)
    with pytest.raises(RuntimeError, match="out of bounds"):
        run_snippet(code)


@pytest.mark.parametrize("split", SPLITS)
def test_the_span_ends_themselves_stay_silent(split):
    code = SPAN_ENDS.replace("{split}", split).replace("{step}", "0") + textwrap.dedent("""
    for b in range(2):
        for s in range(2):
            assert torch.equal(out[b, s], seq[b, int(spans[b, s, 1])])
    """)
    assert _codes(code) == []
    run_snippet(code)


def test_only_the_starts_piece_is_small_enough():
    # the starts reach 3 only: +1 stays inside the 7 positions, though the ends' 6 + 1 would not
    code = SPAN_ENDS.replace("{split}", "unbind(-1)").replace("ends + {step}", "starts + 1") + textwrap.dedent("""
    for b in range(2):
        for s in range(2):
            assert torch.equal(out[b, s], seq[b, int(spans[b, s, 0]) + 1])
    """)
    assert _codes(code) == []
    run_snippet(code)


SCHEDULE = """
import torch

def make_betas(n_timestep, start=1e-4, end=2e-2):
    return torch.linspace(start ** 0.5, end ** 0.5, n_timestep, dtype=torch.float64) ** 2

def spaced_steps(num_steps, num_train):
    c = num_train // num_steps
    return torch.arange(0, num_train, c) + {offset}

class Sampler:
    def __init__(self, num_train=1000):
        betas = make_betas(num_train)
        self.alphas_cumprod = torch.cumprod(1.0 - betas, dim=0)
        self.num_train = num_train

    def schedule(self, num_steps):
        steps = spaced_steps(num_steps, self.num_train)
        return self.alphas_cumprod[steps]

if __name__ == "__main__":
    sampler = Sampler(num_train=1000)
    alphas = sampler.schedule(num_steps=1000)
"""


def test_a_step_past_a_schedule_built_by_a_helper_in_init_is_reported():
    code = SCHEDULE.replace("{offset}", "1")
    assert ("GL011", 19) in _codes(code)
    with pytest.raises(IndexError, match="out of bounds"):
        run_snippet(code)


def test_the_steps_inside_the_schedule_stay_silent():
    code = SCHEDULE.replace("{offset}", "0") + textwrap.dedent("""
        assert torch.equal(alphas, sampler.alphas_cumprod)
    """).replace("\n", "\n    ")
    assert _codes(code) == []
    run_snippet(code)


@pytest.mark.parametrize("commented", [
    "seq = torch.randn(2, 7, 4)  # (batch, seq_len, dim)",
    "# seq: (batch, seq_len, dim)\nseq = torch.randn(2, 7, 4)",
])
def test_a_comment_naming_sizes_the_code_proved_keeps_them_wherever_it_is_written(commented):
    # a comment on the line above, like one at the end of the line, only names the sizes the code made: they still
    # reach the helper as facts, and the one-past-the-end gather is still seen
    code = SPAN_ENDS.replace("{split}", "unbind(-1)").replace("{step}", "1").replace(
        "seq = torch.randn(2, 7, 4)", commented)
    assert ("GL011", 8) in _codes(code)
    with pytest.raises(RuntimeError, match="out of bounds"):
        run_snippet(code)
