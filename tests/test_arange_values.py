"""`torch.arange(n)` holds 0..n-1, each once: a bound on its values that the range checks compare with the dim
it indexes (GL011), and no evidence of repeats, neither alone nor shifted by a stride (`slots * k +
torch.arange(k)`). A constant fill partly written over (`first = ones_like(x); first[1:] = ...`) still holds
the fill somewhere, but no longer everywhere. Each claim runs in torch."""
import pytest

from .conftest import codes, lint
from .snippets import call_run as run

torch = pytest.importorskip("torch")

POSITIONS = '''
import torch

def token_types(buffered, seq_len):
    # buffered: [B, 16]
    position_ids = torch.arange(seq_len).expand(buffered.shape[0], seq_len)
    return torch.gather(buffered, 1, position_ids)

def run():
    return token_types(torch.zeros(2, 16, dtype=torch.long), LENGTH)
'''


def test_positions_past_the_table_are_reported_and_torch_raises():
    code = POSITIONS.replace("LENGTH", "24")
    found = lint(code)
    assert [f.code for f in found] == ["GL011"] and "arange(24)" in found[0].message, found
    with pytest.raises(RuntimeError, match="out of bounds"):
        run(code)


def test_positions_within_the_table_are_silent():
    code = POSITIONS.replace("LENGTH", "16")
    assert codes(code) == []
    assert tuple(run(code).shape) == (2, 16)


STRIDED_SLOTS = '''
import torch

class Slots:
    def __init__(self, request_ids, k):
        first = request_ids.view(-1, k)[:, 0]  # one id per request, each repeated k times in request_ids
        self.rows = (first * k).view(-1, 1) + torch.arange(k, dtype=request_ids.dtype).view(1, k)

def write_states(states, slots, new):
    states[slots.rows.flatten()] = new.flatten(0, 1)

def run():
    states, slots = torch.zeros(9, 4), Slots(torch.tensor([0, 2, 1]).repeat_interleave(3), 3)
    write_states(states, slots, torch.randn(3, 3, 4))
    return states, slots.rows

if __name__ == "__main__":
    run()
'''


def test_slots_strided_by_their_count_are_no_repeats():
    assert codes(STRIDED_SLOTS) == []
    states, rows = run(STRIDED_SLOTS)
    assert rows.flatten().unique().numel() == rows.numel()  # torch: every position once, no write lost


def test_a_fill_written_over_is_among_the_values_not_all_of_them():
    code = '''
    import torch

    PAD = 64

    def pad_rows(rows, width):
        out = torch.full((len(rows), width), PAD, dtype=torch.long)
        for i, row in enumerate(rows):
            out[i, :len(row)] = torch.tensor(row)
        return out

    def run():
        ids = pad_rows([[1, 2, 3], [4, 5]], 4)
        return torch.zeros(2, 64).gather(1, ids)
    '''
    found = lint(code)
    assert [f.code for f in found] == ["GL011"], found
    assert "values that include PAD" in found[0].message and "all equal" not in found[0].message
    with pytest.raises(RuntimeError, match="out of bounds"):
        run(code)


def test_parts_of_a_long_position_buffer_are_silent():
    # a slice or a mask of arange(512) may leave its top out: the usual position buffer of an encoder
    code = '''
    import torch
    import torch.nn as nn

    class Encoder(nn.Module):
        def __init__(self):
            super().__init__()
            self.pos = nn.Embedding(16, 8)
            self.register_buffer("position_ids", torch.arange(512).expand(1, -1))

        def forward(self, x):
            sliced = self.pos(self.position_ids[:, :x.shape[1]])
            full = torch.arange(64)
            masked = self.pos(full[full < 16])
            return sliced, masked

    def run():
        return Encoder()(torch.zeros(2, 10))

    if __name__ == "__main__":
        run()
    '''
    assert codes(code) == []
    sliced, masked = run(code)
    assert tuple(sliced.shape) == (1, 10, 8) and tuple(masked.shape) == (16, 8)  # torch: both in range
