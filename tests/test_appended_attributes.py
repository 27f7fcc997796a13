"""A list attribute that a class's methods only append to holds what those appends added: once each
`self.history.append(x)` has run under a caller's facts, another method reading `self.history[-1]` reads
such an item. Beam search keeps its back-pointers that way, and a true division there makes them float."""
import pytest

from .conftest import codes
from .snippets import run_snippet

BEAM = """
import torch

class Beam:
    def __init__(self, size):
        self.size = size
        self.scores = torch.zeros(size)
        self.prev_ks = []

    def advance(self, word_lk):
        num_words = word_lk.size(1)
        best, best_ids = word_lk.view(-1).topk(self.size)
        self.scores = best
        self.prev_ks.append(best_ids {DIVIDE} num_words)

    def origin(self):
        return self.prev_ks[-1]

def decode(state, steps=3, beam_size=2, vocab=5):
    beam = Beam(beam_size)
    for _ in range(steps):
        beam.advance(torch.randn(beam_size, vocab).log_softmax(-1))
        state = state.index_select(0, beam.origin())
    return state

if __name__ == "__main__":
    torch.manual_seed(0)
    out = decode(torch.randn(2, 4))
"""


def test_float_back_pointers_raise_in_torch_and_are_reported(torch):
    code = BEAM.replace("{DIVIDE}", "/")
    with pytest.raises(RuntimeError, match="index_select"):
        run_snippet(code)
    assert codes(code) == ["GL008"]


def test_floor_divided_back_pointers_are_silent(torch):
    code = BEAM.replace("{DIVIDE}", "//")
    assert run_snippet(code)["out"].shape == (2, 4)
    assert codes(code) == []


def test_a_list_appended_to_from_outside_the_class_is_not_read(torch):
    # the driver appends long back-pointers of its own: the float ones are not the only items
    code = BEAM.replace("{DIVIDE}", "/").replace(
        "        state = state.index_select(0, beam.origin())",
        "        beam.prev_ks.append(torch.arange(beam_size))\n        state = state.index_select(0, beam.origin())")
    assert run_snippet(code)["out"].shape == (2, 4)  # the last item is the driver's long one
    assert codes(code) == []
