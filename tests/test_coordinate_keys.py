"""A key whose last dim holds one coordinate per leading dim of the tensor it indexes (each column capped at
that dim's last position, `torch.minimum(coords, torch.tensor(grid_shape) - 1)`) reads every column along dim
0 when given as one key. torch raises for a column past dim 0, or returns a row per coordinate; the columns,
one per dim (`grid[coords.unbind(-1)]`), read one voxel each. Also: a minimum with bounds written out caps the
values like a clamp."""
import pytest

from gather_lint.static.analyzer import explain_shapes

from .conftest import codes

VOXELS = """
import torch

def voxelize(points, origin, voxel_size, grid_shape):
    coords = torch.div(points - origin, voxel_size, rounding_mode="floor").long()
    upper = torch.tensor(grid_shape) - 1
    return {capped}

def sample(grid, coords):
    return grid[{key}]

if __name__ == "__main__":
    grid_shape = (8, 12, 10)
    grid = torch.randn(*grid_shape, 6)
    origin = torch.tensor([-4.0, -6.0, -1.0])
    points = origin + torch.rand(500, 3) * torch.tensor([8.0, 12.0, 10.0])
    feats = sample(grid, voxelize(points, origin, 1.0, grid_shape))
"""
CAPS = ["torch.minimum(coords.clamp(min=0), upper)", "torch.min(coords.clamp(min=0), upper)",
        "coords.clamp(min=0).minimum(upper)", "torch.minimum(upper, coords.clamp(min=0))"]


@pytest.mark.parametrize("capped", CAPS)
@pytest.mark.parametrize("key, fires", [("coords", True), ("coords.unbind(-1)", False), ("tuple(coords.T)", False)])
def test_coordinates_read_as_one_key(capped, key, fires, torch):
    code = VOXELS.format(capped=capped, key=key)
    found = codes(code)
    assert (found == ["GL004"]) == fires, (code, found)
    scope = {"__name__": "voxels"}
    exec(code, scope)
    torch.manual_seed(0)
    grid = torch.randn(8, 12, 10, 6)
    origin = torch.tensor([-4.0, -6.0, -1.0])
    points = origin + torch.rand(500, 3) * torch.tensor([8.0, 12.0, 10.0])
    coords = scope["voxelize"](points, origin, 1.0, (8, 12, 10))
    if fires:
        with pytest.raises(IndexError, match="out of bounds for dimension 0 with size 8"):
            scope["sample"](grid, coords)
    else:
        assert scope["sample"](grid, coords).shape == (500, 6)


def test_coordinates_that_fit_dim_zero_are_not_reported():
    # bounds below dim 0's size everywhere: as one key nothing raises, and nothing says the columns are per dim
    code = VOXELS.format(capped=CAPS[0], key="coords").replace("(8, 12, 10)", "(16, 12, 10)")
    assert codes(code) == []


def test_minimum_with_written_bounds_caps_like_a_clamp():
    code = """
import torch
def f(n: int):
    x = torch.randint(0, 20, (n, 3))
    y = torch.minimum(x, torch.tensor([4, 9, 2]))
    return y
"""
    facts = {name: fact for _, _, trace in explain_shapes(code, "x.py") for _, name, fact in trace}
    assert "clamped to at most 9" in facts["y"].domain.origin
    assert [(j, i.top) for j, i in facts["y"].column_intervals] == [(0, 4), (1, 9), (2, 2)]
