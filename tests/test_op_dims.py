"""GL002 at any op that takes a dim (topk, sort, unsqueeze, cumsum, a reduction, F.normalize, size): a dim
outside the input's known rank raises 'Dimension out of range'. A rank that is only a guess (an unknown
operand beside a known one) stays a guess through the ops that follow, and is no evidence."""
import pytest

from .conftest import codes

CALLS = {
    "x.topk(2, dim=1)": True,
    "torch.topk(x, 2, dim=1)": True,
    "x.topk(2)": False,
    "F.normalize(x)": True,
    "F.normalize(x, dim=0)": False,
    "x.sort(1)": True,
    "x.unsqueeze(1)": False,
    "x.unsqueeze(2)": True,
    "x.cumsum(dim=-2)": True,
    "x.sum(1)": True,
    "x.max(dim=1)": True,
    "x.max()": False,
    "x.chunk(2, dim=1)": True,
}
PROGRAM = """
import torch
import torch.nn.functional as F

def f():
    x = torch.randn(4)
    out = {call}
    d = torch.zeros(4).scatter_(0, torch.tensor([1]), 1.0)
    return out, d
"""


@pytest.mark.parametrize("call", sorted(CALLS))
def test_dim_against_the_rank(call, torch):
    code = PROGRAM.format(call=call)
    fires = CALLS[call]
    assert (codes(code) == ["GL002"]) == fires, code
    scope = {}
    exec(code, scope)
    if fires:
        with pytest.raises(IndexError, match="Dimension out of range"):
            scope["f"]()
    else:
        scope["f"]()


def test_squeezed_batch_of_one(torch):
    code = """
import torch

def refine(preds, target, top_k: int):
    preds = preds.squeeze()
    top = torch.topk(preds, k=top_k, dim=1).indices
    return torch.zeros_like(preds).scatter_(-1, top, 1.0)

if __name__ == "__main__":
    refine(torch.randn(1, 5), torch.tensor([2]), 2)
"""
    assert codes(code) == ["GL002"]
    assert codes(code.replace("torch.randn(1, 5)", "torch.randn(3, 5)")) == []
    scope = {"__name__": "refine"}
    exec(code, scope)
    with pytest.raises(IndexError, match="Dimension out of range"):
        scope["refine"](torch.randn(1, 5), torch.tensor([2]), 2)


def test_guessed_rank_is_no_evidence(torch):
    # `(~bools)` is unknown: its sum with a 1-d arange may have more dims, and so may the min over its last dim
    code = """
import torch

def first_true(bools):
    n = bools.size(-1)
    return torch.min(n * (~bools).long() + torch.arange(n), dim=-1).values

def ends(responses):
    last = first_true(responses == 0) - 1
    d = torch.zeros(3, 6).scatter_(1, last.unsqueeze(1), 1.0)
    return last.unsqueeze(1), d
"""
    assert codes(code) == []
    scope = {}
    exec(code, scope)
    assert scope["ends"](torch.tensor([[1, 2, 0, 0, 0, 0], [1, 1, 1, 0, 0, 0], [3, 0, 0, 0, 0, 0]]))[0].shape == (3, 1)


def test_shape_of_a_guessed_rank_is_no_tuple(torch):
    # Pointcept's relative position encoding: coord [N, K, K, 3] unknown here, plus an arange of 3 is [..., 3]
    # of an unknown rank; its .shape + (-1,) is no 2-d shape, so sum(3) is no evidence
    code = """
import torch

class RPE(torch.nn.Module):
    def __init__(self, rpe_num: int, num_heads: int):
        super().__init__()
        self.rpe_num = rpe_num
        self.rpe_table = torch.nn.Parameter(torch.zeros(3 * rpe_num, num_heads))

    def forward(self, coord):
        idx = coord.clamp(-2, 2) + 2 + torch.arange(3, device=coord.device) * self.rpe_num
        out = self.rpe_table.index_select(0, idx.reshape(-1))
        return out.view(idx.shape + (-1,)).sum(3)
"""
    assert codes(code) == []
    scope = {}
    exec(code, scope)
    out = scope["RPE"](5, 4)(torch.randint(-3, 4, (2, 6, 6, 3)))
    assert out.shape == (2, 6, 6, 4)


def test_size_is_left_out():
    # read everywhere, of tensors whose rank a docstring's list of names may have given
    code = """
import torch
def collate(batch):
    \"\"\"
    batch: [text_normalized, spec_normalized, wav_normalized]
    \"\"\"
    longest = max([x[1].size(1) for x in batch])
    out = torch.zeros(len(batch), longest)
    return out.scatter_(1, torch.zeros(len(batch), 1, dtype=torch.long), 1.0)
"""
    assert codes(code) == []

