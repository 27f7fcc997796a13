"""GL004 for ranks used as positions: argsort (or sort().indices) of top-k positions ranks the k chosen
positions among themselves (values 0..k-1); gathering or scattering with them along the dim the positions
index reads only that dim's first k entries, whichever positions were chosen.

Each program runs in torch first (the oracle: the rows read are exactly 0..k-1, not the chosen ones),
then through the linter; the fix (the sorted positions themselves) is silent, and so is the argsort
order applied to a tensor laid out like the top-k, and a full permutation (k equal to the dim).
"""
import textwrap

import pytest

from .conftest import lint
from .snippets import expected_lines, run_program

PROGRAMS = {
    "helper-with-literal-k-and-sort-indices": """
import torch


def keep_in_order(tokens, scores, k):
    chosen = torch.topk(scores, k, dim=-1).indices          # positions in the sequence
    order = {rows}
    return torch.take_along_dim(tokens, order.unsqueeze(-1), dim=1)  # expect


tokens = torch.arange(2 * 10 * 3).view(2, 10, 3)
scores = torch.randn(2, 10)
RESULT = keep_in_order(tokens, scores, 4), tokens, torch.topk(scores, 4, dim=-1).indices.sort(dim=-1).values
""",
    "module-with-capacity-fraction": """
import torch
import torch.nn as nn


class TokenDropper(nn.Module):
    def __init__(self, width: int, keep: float):
        super().__init__()
        self.keep = keep
        self.score = nn.Linear(width, 1)

    def forward(self, h):
        n = h.shape[1]
        top = self.score(h).squeeze(-1).topk(int(n * self.keep), dim=1).indices
        rows = {rows}
        return h.gather(1, rows.unsqueeze(-1).expand(-1, -1, h.shape[-1]))  # expect


torch.manual_seed(0)
layer = TokenDropper(3, 0.5)
h = torch.randn(2, 8, 3)
with torch.no_grad():
    out = layer(h)
    best = layer.score(h).squeeze(-1).topk(4, dim=1).indices.sort(dim=1).values
RESULT = out, h, best
""",
    "plain-function-with-a-floor-of-one": """
import torch


def salient_rows(feats):
    n = feats.size(1)
    _, where = torch.topk(feats.abs().sum(-1), max(1, int(n * 0.5)))
    picked = {rows}
    return feats.gather(1, picked[..., None].expand(-1, -1, feats.size(2)))  # expect


feats = torch.randn(3, 6, 2)
RESULT = salient_rows(feats), feats, torch.topk(feats.abs().sum(-1), 3).indices.sort().values
""",
}

RANKS = {
    "plain-function-with-a-floor-of-one": "where.argsort()",
    "helper-with-literal-k-and-sort-indices": "chosen.sort(dim=-1).indices",
    "module-with-capacity-fraction": "torch.argsort(top, dim=1)",
}
POSITIONS = {
    "plain-function-with-a-floor-of-one": "where.sort().values",
    "helper-with-literal-k-and-sort-indices": "chosen.sort(dim=-1).values",
    "module-with-capacity-fraction": "torch.sort(top, dim=1).values",
}


def _program(name: str, rows: str) -> str:
    return textwrap.dedent(PROGRAMS[name]).replace("{rows}", rows)


def _picked(source, rows):
    return torch_module().stack([source[b, rows[b]] for b in range(source.shape[0])])


def _rows_read(out, source) -> set:
    """Which rows of source (rows all different) the gathered rows are."""
    return {next(r for r in range(len(source)) if bool((source[r] == row).all())) for row in out}


def torch_module():
    import torch
    return torch


@pytest.mark.parametrize("name", sorted(PROGRAMS))
def test_ranks_used_as_positions_are_reported_and_torch_reads_the_first_k(name, torch):
    bad = _program(name, RANKS[name])
    found = [f for f in lint(bad) if f.code == "GL004"]
    assert [f.line for f in found] == expected_lines(bad), lint(bad)
    assert "ranks" in found[0].message and "torch.sort" in found[0].message
    out, source, best = run_program(bad)
    k = best.shape[1]
    assert all(_rows_read(out[b], source[b]) == set(range(k)) for b in range(len(out)))  # always rows 0..k-1
    assert any(_rows_read(out[b], source[b]) != set(best[b].tolist()) for b in range(len(out)))


@pytest.mark.parametrize("name", sorted(PROGRAMS))
def test_the_sorted_positions_are_silent_and_torch_reads_the_chosen_rows(name, torch):
    good = _program(name, POSITIONS[name])
    assert [f.code for f in lint(good)] == []
    out, source, best = run_program(good)
    assert torch.equal(out, _picked(source, best))


@pytest.mark.parametrize("code", [
    # argsort's order applied to the k-long top-k values: laid out like the ranks, right
    """
    import torch
    def reorder(scores):
        scores = torch.randn(2, 10)
        vals, pos = scores.topk(4, dim=1)
        return vals.gather(1, torch.argsort(pos, dim=1))
    """,
    # a full permutation: ranks of all the positions (inverse permutation), k is the dim
    """
    import torch
    def unshuffle(x):
        x = torch.randn(3, 6)
        perm = torch.argsort(torch.rand(3, 6), dim=1)
        return x.gather(1, torch.argsort(perm, dim=1))
    """,
    # k not known to be smaller than the dim: silent
    """
    import torch
    def pick(x, k):
        x = torch.randn(3, 6)
        pos = x.topk(k, dim=1).indices
        return x.gather(1, pos.argsort(dim=1))
    """,
])
def test_ranks_in_their_own_layout_or_of_every_position_are_silent(code, torch):
    assert [f.code for f in lint(code) if f.code == "GL004"] == []
