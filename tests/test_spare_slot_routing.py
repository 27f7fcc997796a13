"""An index made by `torch.where(cond, slot, spare)` sends every entry the condition turns away to one spare
slot (an MoE dispatch's overflow, sliced off after the scatter): more entries than positions then need not
repeat any slot meant, so the pigeonhole says nothing. Without the spare slot, more entries than positions
certainly repeat one (GL013)."""
import pytest

from .conftest import codes

DISPATCH = """
import torch

def dispatch(expert_ids, location_ids, num_experts, capacity):
    num_samples = expert_ids.shape[1]
    offset = {offset}
    out = torch.full([num_experts * capacity + 1], -1)
    sample_ids = torch.arange(offset.numel()) % num_samples
    out = out.scatter_(0, offset.flatten().long(), sample_ids)[:-1]
    return out.view(num_experts, capacity)

if __name__ == "__main__":
    expert_ids = torch.randint(0, 4, (2, 15))
    location_ids = torch.randint(0, 9, (2, 15))
    print(dispatch(expert_ids, location_ids, 4, 7))
"""
SPARE = "torch.where(location_ids < capacity, expert_ids * capacity + location_ids, num_experts * capacity)"


@pytest.mark.parametrize("offset, fires", [
    (SPARE, False),
    (SPARE.replace("num_experts * capacity)", "0)"), True),  # the turned-away entries overwrite slot 0
    ("(expert_ids * capacity + location_ids.clamp(max=capacity - 1))", True),
])
def test_pigeonhole_and_a_spare_slot(offset, fires, torch):
    code = DISPATCH.format(offset=offset)
    assert ("GL013" in codes(code)) == fires, code
    scope = {"__name__": "dispatch"}
    exec(code, scope)
    expert_ids = torch.randint(0, 4, (2, 15))
    location_ids = torch.randint(0, 9, (2, 15))
    out = scope["dispatch"](expert_ids, location_ids, 4, 7)
    assert out.shape == (4, 7)
    if fires:  # 30 entries into 29 positions: some position is written twice
        flat = eval(offset, {"torch": torch, "expert_ids": expert_ids, "location_ids": location_ids,
                             "capacity": 7, "num_experts": 4}).flatten()
        assert flat.numel() > 29 and flat.unique().numel() < flat.numel()


def test_where_branch_holds_what_its_condition_keeps(torch):
    # location ids reach 8, but the kept branch holds only those below capacity 7: at most 3 * 7 + 6 = 27
    code = """
import torch
def slots(capacity: int):
    expert_ids = torch.randint(0, 4, (2, 15))
    location_ids = torch.randint(0, 9, (2, 15))
    offset = torch.where(location_ids < capacity, expert_ids * capacity + location_ids, 4 * capacity)
    table = torch.randn(4 * capacity + 1, 3)
    return table[offset]

if __name__ == "__main__":
    slots(7)
"""
    assert codes(code) == []
    assert codes(code.replace("location_ids < capacity", "location_ids < 9")) == ["GL011"]
    scope = {"__name__": "slots"}
    exec(code, scope)
    assert scope["slots"](7).shape == (2, 15, 3)
