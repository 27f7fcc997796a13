"""`torch.where(topk_ids == e)` names each row at most once: top-k positions are distinct along their dim, so
the mask is true at most once per row, and `out[rows] += ...` (a mixture of experts' routing loop) loses no
update. A mask that can be true twice in a row (ids drawn with repeats, a `>=` test) still repeats rows. Each
claim runs in torch."""
import pytest

from .conftest import lint
from .snippets import run_snippet

ROUTE = """
import torch
import torch.nn as nn

class MoE(nn.Module):
    def __init__(self, dim, n_expert, k):
        super().__init__()
        self.gate = nn.Linear(dim, n_expert, bias=False)
        self.experts = nn.ModuleList(nn.Linear(dim, dim) for _ in range(n_expert))
        self.k = k

    def forward(self, xs):
        router = self.gate(xs)
        logits, selected = torch.topk(router, self.k)
        weights = torch.softmax(logits, dim=1)
        SELECTED
        output = torch.zeros_like(xs)
        for i, expert in enumerate(self.experts):
            token_ids, ith_expert = torch.where(MASK)
            output[token_ids] += weights[token_ids, ith_expert, None] * expert(xs[token_ids])
        return output, selected

if __name__ == "__main__":
    torch.manual_seed(0)
    model = MoE(8, 4, 2)
    xs = torch.randn(16, 8)
    OUT, SEL = model(xs)
    weights = torch.softmax(torch.topk(model.gate(xs), 2).values, dim=1)
    REF = torch.zeros_like(xs)  # every (row, pick) added
    for t in range(16):
        for j in range(2):
            REF[t] += weights[t, j] * model.experts[int(SEL[t, j])](xs[t])
"""


@pytest.mark.parametrize("mask", ["selected == i", "selected.eq(i)", "i == selected"])
def test_routing_by_top_k_experts_writes_each_row_once(mask, torch):
    program = ROUTE.replace("SELECTED", "pass").replace("MASK", mask)
    assert lint(program) == []
    with torch.no_grad():
        scope = run_snippet(program)
    assert torch.allclose(scope["OUT"], scope["REF"], atol=1e-6)


def test_experts_drawn_with_repeats_in_a_row_still_lose_updates(torch):
    """Two picks of one expert in a row put that row twice in `token_ids`: the in-place add keeps one."""
    program = ROUTE.replace("SELECTED", "selected = torch.randint(0, 2, selected.shape)").replace("MASK", "selected == i")
    assert [f.code for f in lint(program)] == ["GL013"]
    with torch.no_grad():
        scope = run_snippet(program)
    sel = scope["SEL"]
    twice = [t for t in range(16) if sel[t, 0] == sel[t, 1]]
    assert twice  # some row picked one expert twice ...
    assert not torch.allclose(scope["OUT"][twice], scope["REF"][twice])  # ... and kept one of its two updates
