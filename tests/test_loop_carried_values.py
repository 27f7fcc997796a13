"""What a loop body keeps of a name it reassigns (static/loop_facts.py): a tensor before the loop and after the
body is a tensor at every pass, with the rank the body keeps, even when its sizes and dtype change; and a
tensor's true division is a float whatever its operands' dtypes (static/expressions.py)."""
import pytest

from .conftest import codes, lint
from .snippets import expected_lines, run_program

PARENT_WALK = """
import torch


class PriorityTree:
    def __init__(self, leaves):
        self.leaves = leaves
        self.values = torch.zeros(2 * leaves)

    def refresh(self, slots, priorities):
        \"\"\"
        Args:
            slots (LongTensor): shape (K,), leaf slots in [0, leaves).
            priorities (Tensor): shape (K,).
        \"\"\"
        at = slots + self.leaves
        self.values[at] = priorities
        while True:
            at = PARENT                                                    # walk up one level
            self.values[at] = self.values[at * 2] + self.values[at * 2 + 1]  # expect
            if bool((at == 1).all()):
                break


if __name__ == "__main__":
    tree = PriorityTree(4)
    tree.refresh(torch.tensor([0, 3]), torch.tensor([0.5, 2.0]))
    RESULT = tree.values
"""

PARENTS = ["torch.unique(at / 2)", "(at / 2).unique()", "torch.unique(at / 2).flip(0)"]


@pytest.mark.parametrize("parent", PARENTS)
def test_a_true_division_carried_round_a_while_loop_is_a_float_key(parent, torch):
    program = PARENT_WALK.replace("PARENT", parent)
    line = expected_lines(program)[0]
    assert ("GL008", line) in [(f.code, f.line) for f in lint(program)]
    with pytest.raises(IndexError, match="tensors used as indices must be long, int, byte or bool"):
        run_program(program)


def test_a_floor_division_carried_round_the_loop_is_not_flagged(torch):
    program = PARENT_WALK.replace("PARENT", "torch.unique(torch.div(at, 2, rounding_mode='floor'))")
    assert "GL008" not in codes(program)
    values = run_program(program)
    assert values[1].item() == pytest.approx(2.5)  # the root holds the sum of the leaves


UNKNOWN_WIDTHS = """
import torch
import torch.nn as nn


class Head(nn.Module):
    def __init__(self, dims):
        super().__init__()
        self.layers = nn.ModuleList(nn.Linear(a, b) for a, b in zip(dims, dims[1:]))

    def forward(self, x):
        for i, layer in enumerate(self.layers):
            x = layer(x).relu() if i < len(self.layers) - 1 else layer(x)
        return x


class Selector(nn.Module):
    def __init__(self, width, k):
        super().__init__()
        self.k = k
        self.score = nn.Linear(width, 1)
        self.box = Head([width, width, 4])

    def forward(self, memory, anchors):
        boxes = self.box(memory) + anchors                         # [B, N, 4]
        picked = self.score(memory).squeeze(-1).topk(self.k, dim=1).indices
        return boxes.gather(1, picked.unsqueeze(-1)), boxes, picked  # expect


if __name__ == "__main__":
    torch.manual_seed(0)
    memory = torch.randn(2, 10, 8)
    anchors = torch.randn(2, 10, 4)
    with torch.no_grad():
        RESULT = Selector(8, 3)(memory, anchors)
"""


def test_a_layer_loop_of_unknown_widths_keeps_the_rank_of_its_output(torch):
    line = expected_lines(UNKNOWN_WIDTHS)[0]
    assert ("GL005", line) in [(f.code, f.line) for f in lint(UNKNOWN_WIDTHS)]
    got, boxes, picked = run_program(UNKNOWN_WIDTHS)
    assert got.shape == (2, 3, 1)  # torch: only coordinate 0 of each box, silently
    assert torch.equal(got[..., 0], boxes.gather(1, picked.unsqueeze(-1).expand(-1, -1, 4))[..., 0])
    fixed = UNKNOWN_WIDTHS.replace("picked.unsqueeze(-1))", "picked.unsqueeze(-1).expand(-1, -1, 4))")
    assert codes(fixed) == []
    assert run_program(fixed)[0].shape == (2, 3, 4)
