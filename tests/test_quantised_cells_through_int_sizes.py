"""GL013 through sizes made by `int(...)`/`len(...)`: `ix * self.ny + iy` of rounded coordinates still
holds cell ids that repeat, whether the row length is a literal, an int parameter or an attribute
that `__init__` computed with `int(...)`."""
import pytest

from .conftest import lint

METHOD_ATTRIBUTE = '''
import torch


class Rasterizer:
    def __init__(self, extent, cell):
        self.cell = cell
        self.cols = int(extent / cell)
        self.rows = int(extent / cell)

    def cell_ids(self, pts):
        """
        Args:
            pts: float tensor of shape (batch, n_points, 2).
        """
        r = (pts[..., 0] / self.cell).floor().long()
        c = (pts[..., 1] / self.cell).floor().long()
        return r * self.cols + c

    def max_map(self, pts, values):
        """
        Args:
            pts: float tensor of shape (batch, n_points, 2).
            values: float tensor of shape (batch, n_points).
        """
        grid = torch.zeros(pts.shape[0], self.rows * self.cols)
        grid.scatter_(1, self.cell_ids(pts), values)
        return grid
'''

FUNCTION_LEN = '''
import torch


def splat(coords, weights, bins):
    # coords: [N, 2]
    # weights: [N]
    width = len(bins)
    u = torch.floor(coords[:, 0] * width).long()
    v = torch.floor(coords[:, 1] * width).long()
    image = torch.zeros(width * width)
    return image.scatter(0, v * width + u, weights)
'''

JAXTYPING_INT = '''
import torch
from jaxtyping import Float
from torch import Tensor


def depth_image(uv: Float[Tensor, "n 2"], depth: Float[Tensor, "n"], size: float) -> Float[Tensor, "p"]:
    side = int(size)
    px = uv.round().long()
    flat = px[:, 1] * side + px[:, 0]
    out = depth.new_zeros(side * side)
    out.scatter_(0, flat, depth)
    return out
'''


@pytest.mark.parametrize("code", [METHOD_ATTRIBUTE, FUNCTION_LEN, JAXTYPING_INT],
                         ids=["method-int-attribute", "function-len", "jaxtyping-int-local"])
def test_raveled_cells_with_int_row_length_repeat(code):
    found = [f for f in lint(code) if f.code == "GL013"]
    assert len(found) == 1, [(f.code, f.message) for f in lint(code)]
    assert "can repeat" in found[0].message and "amax" in found[0].message


@pytest.mark.parametrize("code", [
    # a distinct component (arange) makes every position unique
    '''
import torch
def f(pts, n: int):
    # pts: [N, 2]
    side = int(n)
    r = (pts[:, 0] * side).long()
    flat = r * side + torch.arange(pts.shape[0])
    out = torch.zeros(side * pts.shape[0])
    out.scatter_(0, flat, pts[:, 1])
    return out
''',
    # a number marks presence: repeats write the same value
    '''
import torch
def f(pts, n: int):
    # pts: [N, 2]
    side = int(n)
    r = (pts[:, 0] * side).long()
    c = (pts[:, 1] * side).long()
    occ = torch.zeros(side * side)
    occ.scatter_(0, r * side + c, 1.0)
    return occ
''',
    # accumulating
    '''
import torch
def f(pts, w, n: int):
    # pts: [N, 2]
    # w: [N]
    side = int(n)
    r = (pts[:, 0] * side).long()
    c = (pts[:, 1] * side).long()
    return torch.zeros(side * side).scatter_add(0, r * side + c, w)
''',
])
def test_other_writes_stay_silent(code):
    assert "GL013" not in [f.code for f in lint(code)]


def test_torch_keeps_one_value_per_cell(torch):
    """The message's claim: scatter_ keeps one of the values that land in one cell, not their max or sum."""
    values = torch.tensor([1.0, 5.0, 2.0, 3.0])
    cells = torch.tensor([0, 0, 0, 2])
    kept = torch.zeros(3).scatter_(0, cells, values)
    assert kept[0].item() in (1.0, 5.0, 2.0)
    maxima = torch.zeros(3).scatter_reduce(0, cells, values, "amax")
    sums = torch.zeros(3).scatter_add(0, cells, values)
    assert maxima[0].item() == 5.0 and sums[0].item() == 8.0
    assert not (torch.equal(kept, maxima) and torch.equal(kept, sums))
