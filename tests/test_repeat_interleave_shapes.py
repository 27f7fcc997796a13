"""`repeat_interleave` keeps its shape: `t.repeat_interleave(r)` is t flattened with each entry r times
([numel * r]), `dim=d` multiplies dim d by r, a tensor of repeats gives a run-time length. Top-k routing
builds its token index this way (`arange(n).repeat_interleave(k)`), so the checks reach the combine."""
import pytest

from .conftest import lint
from .snippets import run_snippet

TOP_K_COMBINE = '''
import torch
import torch.nn as nn


class Router(nn.Module):
    def __init__(self, width, n_experts, k):
        super().__init__()
        self.k = k
        self.gate = nn.Linear(width, n_experts)
        self.experts = nn.ModuleList([nn.Linear(width, width) for _ in range(n_experts)])

    def forward(self, tokens):
        scores, chosen = self.gate(tokens).softmax(-1).topk(self.k, dim=-1)
        owner = torch.arange(tokens.size(0)).repeat_interleave(self.k)
        chosen, scores = chosen.reshape(-1), scores.reshape(-1)
        combined = torch.zeros_like(tokens)
        for e, expert in enumerate(self.experts):
            hit = (chosen == e).nonzero(as_tuple=True)[0]
            rows = owner[hit]
            out = expert(tokens.index_select(0, rows)) * scores[hit].unsqueeze(-1)
            combined.scatter_add_(0, rows.unsqueeze(-1), out)
        return combined


if __name__ == "__main__":
    torch.manual_seed(0)
    router = Router(6, 3, 2)
    x = torch.randn(5, 6)
    y = router(x)
'''

SCATTER_LINE = "            combined.scatter_add_(0, rows.unsqueeze(-1), out)"
EXPANDED = "            combined.scatter_add_(0, rows.unsqueeze(-1).expand_as(out), out)"


def test_top_k_token_index_reaches_the_combine():
    found = [f for f in lint(TOP_K_COMBINE) if f.code == "GL009"]
    assert len(found) == 1, [(f.code, f.message) for f in lint(TOP_K_COMBINE)]
    assert found[0].line == TOP_K_COMBINE.splitlines().index(SCATTER_LINE) + 1


def test_expanded_combine_is_silent():
    assert [f.code for f in lint(TOP_K_COMBINE.replace(SCATTER_LINE, EXPANDED))] == []


def test_torch_the_unexpanded_combine_writes_only_the_first_column(torch):
    y = run_snippet(TOP_K_COMBINE)["y"]
    assert y[:, 0].abs().sum() > 0 and torch.all(y[:, 1:] == 0)


DOUBLED_SOURCE = '''
import torch


def pool_pairs(nodes, parent):
    # nodes: [N, H]   parent: [N]
    pooled = torch.zeros(4, nodes.size(1))
    return pooled.index_add_(0, parent, nodes.repeat_interleave(2, dim=0))


if __name__ == "__main__":
    pool_pairs(torch.randn(6, 3), torch.tensor([0, 1, 1, 2, 3, 3]))
'''


def test_source_repeated_along_the_index_dim_has_twice_the_rows(torch):
    assert "GL003" in [f.code for f in lint(DOUBLED_SOURCE)]
    with pytest.raises((RuntimeError, IndexError)):
        run_snippet(DOUBLED_SOURCE)


def test_index_repeated_alike_is_silent(torch):
    code = DOUBLED_SOURCE.replace("index_add_(0, parent,", "index_add_(0, parent.repeat_interleave(2),")
    assert [f.code for f in lint(code)] == []
    run_snippet(code)


@pytest.mark.parametrize("call, expected", [
    ("torch.arange(4).repeat_interleave(3)", (12,)),
    ("x.repeat_interleave(2)", (24,)),
    ("x.repeat_interleave(2, dim=0)", (6, 4)),
    ("torch.repeat_interleave(x, 3, dim=-1)", (3, 12)),
])
def test_torch_shapes_the_analysis_uses(torch, call, expected):
    x = torch.randn(3, 4)
    assert tuple(eval(call, {"torch": torch, "x": x}).shape) == expected
