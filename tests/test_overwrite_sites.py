"""GL013 where a zeros buffer is written by subscript with rounded coordinates, in files that name no op
of the family: `.round().long()` / `.floor().int()` admit the file, and the block writing the buffer
is analysed with the helper that rounds (static/analyzer.py's prefilter).

Every flagged snippet binds `out` (what the code computes), `expected` (every value accumulated, by a
plain loop) and `fixed` (every value accumulated by `bincount`,
as `index_put_(..., accumulate=True)` would: the snippets must not name an op of the family); torch must give `out != expected` and
`fixed == expected`.
"""
import textwrap

import pytest

from .conftest import lint

FLAGGED = [
    ("helper-projects-pixels-caller-writes-depth", """
        import torch

        def to_pixels(points, focal, width, height):
            x, y, z = points.unbind(-1)
            u = (focal * x / z + width / 2).round().long().clamp(0, width - 1)
            v = (focal * y / z + height / 2).round().long().clamp(0, height - 1)
            return u, v, z

        def intensity_image(points, width, height):
            u, v, z = to_pixels(points, 4.0, width, height)
            image = torch.zeros(height, width)
            image[v, u] = 1.0 / z
            return image

        points = torch.rand(200, 3) + torch.tensor([0.0, 0.0, 1.0])
        out = intensity_image(points, 6, 5)
        u, v, z = to_pixels(points, 4.0, 6, 5)
        expected = torch.tensor([[sum(1.0 / zi for ui, vi, zi in zip(u.tolist(), v.tolist(), z.tolist()) if (vi, ui) == (r, c))
                                  for c in range(6)] for r in range(5)])
        fixed = torch.bincount(v * 6 + u, weights=1.0 / z, minlength=30).view(5, 6).float()
    """, 13),
    ("method-floors-cells-buffer-written-in-another-method", """
        import torch

        class Rasteriser:
            def __init__(self, cell):
                self.cell = cell

            def cells(self, xy):
                return (xy / self.cell).floor().long()

            def splat(self, xy, mass):
                ij = self.cells(xy)
                grid = torch.zeros(8, 8)
                grid[ij[:, 0], ij[:, 1]] = mass
                return grid

        xy = torch.rand(100, 2) * 7.9
        mass = torch.rand(100)
        out = Rasteriser(1.0).splat(xy, mass)
        ij = (xy / 1.0).floor().long()
        expected = torch.tensor([[sum(m for (i, j), m in zip(ij.tolist(), mass.tolist()) if (i, j) == (r, c))
                                  for c in range(8)] for r in range(8)])
        fixed = torch.bincount(ij[:, 0] * 8 + ij[:, 1], weights=mass, minlength=64).view(8, 8).float()
    """, 14),
    ("same-function-round-int-bins", """
        import torch

        def weighted_histogram(values, weights, n_bins: int):
            bins = (values * (n_bins - 1)).round().int()
            hist = torch.zeros(n_bins)
            hist[bins] = weights
            return hist

        values, weights = torch.rand(50), torch.rand(50)
        out = weighted_histogram(values, weights, 6)
        bins = (values * 5).round().int()
        expected = torch.tensor([sum(w for b, w in zip(bins.tolist(), weights.tolist()) if b == k) for k in range(6)])
        fixed = torch.bincount(bins.long(), weights=weights, minlength=6).float()
    """, 7),
]


def _run(code: str) -> dict:
    scope: dict = {}
    exec(compile(textwrap.dedent(code), "<snippet>", "exec"), scope)
    return scope


@pytest.mark.parametrize("code,line", [(c, n) for _, c, n in FLAGGED], ids=[n for n, _, _ in FLAGGED])
def test_rounded_positions_written_into_zeros_are_flagged(code, line):
    found = [(f.code, f.line) for f in lint(code)]
    assert ("GL013", line) in found, found


@pytest.mark.parametrize("code,line", [(c, n) for _, c, n in FLAGGED], ids=[n for n, _, _ in FLAGGED])
def test_torch_keeps_one_write_per_position_and_accumulate_is_right(code, line, torch):
    torch.manual_seed(0)
    scope = _run(code)
    assert not torch.allclose(scope["out"], scope["expected"])
    assert torch.allclose(scope["fixed"], scope["expected"], atol=1e-5)


def test_a_file_rounding_coordinates_without_a_buffer_write_is_not_parsed_for_it():
    from gather_lint.static.analyzer import fills_buffer

    assert fills_buffer("grid = torch.zeros(4)\nidx = (x / s).floor().long()\ngrid[idx] = w\n")
    assert not fills_buffer("idx = (x / s).floor().long()\nout = table[idx]\n")
    assert not fills_buffer("grid = torch.zeros(4)\ngrid[idx] = w\n")
