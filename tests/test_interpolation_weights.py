"""GL026 (static/ceil_floor_weights.py): a value spread between `floor(b)` and `ceil(b)` with weights
`ceil(b) - b` and `b - floor(b)` is lost where b is a whole number.

Each flagged snippet binds `spread` (what the code wrote) and `total` (what went in); torch must show
mass missing. Each near-miss is the correct form, and torch must show the mass kept.
"""
import textwrap

import pytest
import torch

from .conftest import lint
from .snippets import run_snippet

FLAGGED = [
    ("module-tuple-assign-index-add-named-weights", """
        import torch
        import torch.nn as nn

        class SupportProjector(nn.Module):
            def __init__(self, n_bins):
                super().__init__()
                self.n_bins = n_bins

            def forward(self, probs, frac_pos):
                # probs, frac_pos: [N, K]
                n = probs.size(0)
                lo, hi = torch.floor(frac_pos).to(torch.int64), torch.ceil(frac_pos).to(torch.int64)
                w_lo = probs * (hi.float() - frac_pos)
                w_hi = probs * (frac_pos - lo.float())
                base = (torch.arange(n) * self.n_bins).unsqueeze(1)
                target = torch.zeros(n * self.n_bins)
                target.index_add_(0, (lo + base).flatten(), w_lo.flatten())
                target.index_add_(0, (hi + base).flatten(), w_hi.flatten())
                return target.view(n, self.n_bins)

        probs = torch.tensor([[0.4, 0.6], [0.5, 0.5]])
        spread = SupportProjector(5)(probs, torch.tensor([[2.0, 1.5], [4.0, 0.25]]))
        total = probs.sum(1)
    """, 18),
    ("loop-subscript-augassign", """
        import torch

        def soft_histogram(values, weights, n_bins):
            b = values * (n_bins - 1)
            l = b.floor().long()
            u = b.ceil().long()
            hist = torch.zeros(n_bins)
            for j in range(values.numel()):
                hist[l[j]] += weights[j] * (u[j] - b[j])
                hist[u[j]] += weights[j] * (b[j] - l[j])
            return hist

        weights = torch.tensor([1.0, 2.0, 3.0])
        spread = soft_histogram(torch.tensor([0.0, 0.3, 1.0]), weights, 5)
        total = weights.sum()
    """, 11),
    ("index-put-accumulate", """
        import torch

        def splat(grid_size, coords, mass):
            left = torch.floor(coords).long()
            right = torch.ceil(coords).long()
            grid = torch.zeros(grid_size)
            grid.index_put_((left,), mass * (right - coords), accumulate=True)
            grid.index_put_((right,), mass * (coords - left), accumulate=True)
            return grid

        mass = torch.tensor([1.0, 1.0])
        spread = splat(4, torch.tensor([1.0, 2.5]), mass)
        total = mass.sum()
    """, 8),
]

NEAR_MISSES = [
    ("upper-neighbour-is-floor-plus-one", """
        import torch

        def soft_histogram(values, weights, n_bins):
            b = values * (n_bins - 1)
            l = b.floor().long()
            u = l + 1
            hist = torch.zeros(n_bins + 1)
            hist.scatter_add_(0, l, weights * (u - b))
            hist.scatter_add_(0, u, weights * (b - l))
            return hist[:n_bins] + torch.cat([torch.zeros(n_bins - 1), hist[n_bins:]])

        weights = torch.tensor([1.0, 2.0, 3.0])
        spread = soft_histogram(torch.tensor([0.0, 0.3, 1.0]), weights, 5)
        total = weights.sum()
    """),
    ("coinciding-neighbours-moved", """
        import torch

        def project(probs, b, n_atoms):
            l, u = b.floor().long(), b.ceil().long()
            l[(u > 0) & (l == u)] -= 1
            u[(l < (n_atoms - 1)) & (l == u)] += 1
            m = torch.zeros(probs.size(0), n_atoms)
            m.scatter_add_(1, l, probs * (u.float() - b))
            m.scatter_add_(1, u, probs * (b - l.float()))
            return m

        probs = torch.tensor([[0.4, 0.6], [0.5, 0.5]])
        spread = project(probs, torch.tensor([[2.0, 1.5], [4.0, 0.25]]), 5)
        total = probs.sum(1)
    """),
    ("coincidence-tested", """
        import torch

        def project(probs, b, n_atoms):
            l = b.floor().long()
            u = b.ceil().long()
            same = (l == u).float()
            m = torch.zeros(probs.size(0), n_atoms)
            m.scatter_add_(1, l, probs * (u.float() - b + same))
            m.scatter_add_(1, u, probs * (b - l.float()))
            return m

        probs = torch.tensor([[0.4, 0.6], [0.5, 0.5]])
        spread = project(probs, torch.tensor([[2.0, 1.5], [4.0, 0.25]]), 5)
        total = probs.sum(1)
    """),
    ("complementary-weight", """
        import torch

        def project(probs, b, n_atoms):
            l = b.floor().long()
            u = b.ceil().long()
            frac = b - l.float()
            m = torch.zeros(probs.size(0), n_atoms)
            m.scatter_add_(1, l, probs * (1 - frac))
            m.scatter_add_(1, u, probs * frac)
            return m

        probs = torch.tensor([[0.4, 0.6], [0.5, 0.5]])
        spread = project(probs, torch.tensor([[2.0, 1.5], [4.0, 0.25]]), 5)
        total = probs.sum(1)
    """),
]


def _mass(scope):
    spread = scope["spread"]
    return spread.sum(-1) if spread.dim() > 1 else spread.sum()


@pytest.mark.parametrize("name,code,line", FLAGGED, ids=[c[0] for c in FLAGGED])
def test_flagged_and_torch_drops_the_mass(name, code, line):
    found = [(f.line, f.code) for f in lint(textwrap.dedent(code))]
    assert (line, "GL026") in found, found
    scope = run_snippet(code)
    assert not torch.allclose(_mass(scope), scope["total"])


@pytest.mark.parametrize("name,code", NEAR_MISSES, ids=[c[0] for c in NEAR_MISSES])
def test_near_miss_is_silent_and_torch_keeps_the_mass(name, code):
    assert [f for f in lint(textwrap.dedent(code)) if f.code == "GL026"] == []
    scope = run_snippet(code)
    assert torch.allclose(_mass(scope), scope["total"])


def test_message_names_the_neighbours_and_the_fix():
    message = next(f.message for f in lint(textwrap.dedent(FLAGGED[0][1])) if f.code == "GL026")
    assert "`lo` and `hi`" in message and "`lo + 1`" in message
