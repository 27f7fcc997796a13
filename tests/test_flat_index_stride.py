"""GL030: coordinates of an [H, W] tensor flattened as `rows * H + cols` (static/flat_positions.py). A row-major
flat position strides the rows by W. Each claim runs in torch: a tall tensor raises, a wide one puts entries in the
wrong places silently, and the forms left alone give the right positions."""
import pytest

from .conftest import lint
from .snippets import call_run as run

torch = pytest.importorskip("torch")

PROGRAM = '''
import torch

def mark_foreground(mask):
    """Args:
        mask: binary image of shape (height, width)
    """
    height, width = mask.shape
    COORDS
    flat = torch.zeros(height * width)
    flat.index_put_((FLAT,), torch.ones(len(rows)))
    return flat.view(height, width)

def run(h=6, w=4):
    mask = torch.zeros(h, w, dtype=torch.long)
    mask[1:h - 1, 1:w - 1] = 1
    return mark_foreground(mask), mask.float()
'''

WHERE = "rows, cols = torch.where(mask == 1)"
AS_TUPLE = "rows, cols = (mask == 1).nonzero(as_tuple=True)"
NONZERO = "coords = (mask == 1).nonzero()\n    rows, cols = coords[:, 0], coords[:, 1]"


def _program(coords=WHERE, flat="rows * height + cols"):
    return PROGRAM.replace("COORDS", coords).replace("FLAT", flat)


@pytest.mark.parametrize("coords, flat", [
    (WHERE, "rows * height + cols"),
    (AS_TUPLE, "rows * height + cols"),
    (NONZERO, "rows * height + cols"),
    (WHERE, "cols + rows * height"),
    (WHERE, "height * rows + cols"),
], ids=["where", "nonzero-as-tuple", "nonzero-columns", "cols-first", "stride-first"])
def test_a_tall_image_runs_past_its_flattened_size(coords, flat):
    code = _program(coords, flat)
    found = lint(code)
    line = next(n for n, text in enumerate(code.splitlines(), 1) if "index_put_" in text)
    assert [(f.code, f.line) for f in found] == [("GL030", line)]
    assert "width" in found[0].message
    with pytest.raises(IndexError, match="out of bounds"):
        run(code)


def test_a_wide_image_puts_entries_in_the_wrong_places_silently():
    code = _program()
    assert [f.code for f in lint(code)] == ["GL030"]
    got, expected = run(code.replace("def run(h=6, w=4)", "def run(h=4, w=6)"))
    assert got.shape == expected.shape and not torch.equal(got, expected)


@pytest.mark.parametrize("flat", ["rows * width + cols", "cols + width * rows"])
def test_rows_strided_by_the_width_are_left_alone_and_right(flat):
    code = _program(flat=flat)
    assert lint(code) == []
    got, expected = run(code)
    assert torch.equal(got, expected)


def test_a_square_image_of_one_size_is_left_alone():
    """`# mask: [N, N]`: the author's own sizes say rows and columns have one size; the positions are right."""
    code = _program().replace('"""Args:\n        mask: binary image of shape (height, width)\n    """',
                              '# mask: [N, N]').replace("height, width = mask.shape", "height = width = mask.shape[0]")
    assert lint(code) == []
    got, expected = run(code.replace("def run(h=6, w=4)", "def run(h=5, w=5)"))
    assert torch.equal(got, expected)


def test_a_padded_row_length_is_not_the_rows_own_size():
    """A buffer whose rows are padded to a longer stride: positions of another layout, not a mistake."""
    code = _program(flat="rows * (width + 2) + cols").replace("torch.zeros(height * width)",
                                                              "torch.zeros(height * (width + 2))")
    code = code.replace("return flat.view(height, width)", "return flat.view(height, width + 2)[:, :width]")
    assert lint(code) == []
    got, expected = run(code)
    assert torch.equal(got, expected)
