"""Named sizes compared through their arithmetic, and value ranges through `rows * width + cols`
(GL011). The reported programs raise in torch; the right-sized ones run."""
import pytest

from gather_lint import linear_sizes
from gather_lint.dims import Sym, must_exceed

from .conftest import codes
from .snippets import call_run as run

torch = pytest.importorskip("torch")


@pytest.mark.parametrize("a, b, exceeds", [
    ("w + 1", "w", True), ("h*w + 1", "h*w", True), ("w*h + 1", "h*w", True), ("T", "T-1", True),
    ("T-1", "T", False), ("w", "w", False), ("a", "b", False), ("2*M", "M", False), ("h*w - w + 1", "h*w", False),
])
def test_named_sizes_exceed_only_by_a_positive_constant(a, b, exceeds):
    assert linear_sizes.exceeds(a, b) is exceeds
    assert must_exceed(Sym(a), Sym(b)) is exceeds


def test_size_names_print_products_then_the_constant():
    assert linear_sizes.text(linear_sizes.parse("1 + w*h - w")) == "h*w - w + 1"
    assert linear_sizes.evaluate(linear_sizes.parse("h*w + 1"), {"h": 6, "w": 6}) == 37


SAMPLER = """
import torch

def sample(x, pos_y, pos_x):
    b, c, h, w = x.shape
    q_y = pos_y.round().long().clamp(0, h - 1)
    q_x = pos_x.round().long().clamp(0, WIDTH_TOP)
    index = (q_y * w + q_x).reshape(b, 1, -1).expand(-1, c, -1)
    return x.reshape(b, c, h * w).gather(-1, index)

def run():
    x = torch.randn(2, 3, 4, 5)
    pos = torch.arange(20.0).view(1, 4, 5).expand(2, -1, -1) % 6
    return sample(x, pos, pos)
"""


def test_a_column_clamped_to_the_width_reaches_past_the_flat_map_and_raises():
    code = SAMPLER.replace("WIDTH_TOP", "w")
    assert codes(code) == ["GL011"]
    with pytest.raises(RuntimeError, match="out of bounds"):
        run(code)


def test_a_column_clamped_to_the_last_column_is_silent_and_runs():
    code = SAMPLER.replace("WIDTH_TOP", "w - 1")
    assert codes(code) == []
    assert run(code).shape == (2, 3, 20)
