"""A docstring entry for a list or tuple of tensors gives the shape of each item (`feats (List[Tensor]): features
of shape (B, C, H, W), one per level`, `past: tuple with one tensor per layer, each of shape` with the shape on the
next line): a loop or comprehension over the parameter reads its items with that shape. A dict of tensors gives
nothing (iterating it gives its keys). Each claim runs in torch."""
import pytest

from .conftest import lint
from .snippets import run_snippet

LEVELS = '''
import torch

def pick_channels(feats, idx):
    """
    Args:
        feats ENTRY
        idx: (B, K) picked channels
    """
    return [f.gather(1, idx) for f in feats]

if __name__ == "__main__":
    OUT = pick_channels([torch.randn(2, 8, 4, 4), torch.randn(2, 8, 2, 2)], torch.randint(0, 8, (2, 3)))
'''


@pytest.mark.parametrize("entry", [
    "(List[Tensor]): features of shape (B, C, H, W), one per level.",
    ": list of tensors of shape [B, C, H, W]",
    ": tuple with one tensor per level, each of shape\n            (B, C, H, W), the finest first.",
])
def test_items_of_a_documented_list_have_its_shape(entry, torch):
    program = LEVELS.replace("ENTRY", entry)
    own = program[:program.index("if __name__")]  # the function alone: its docstring is all it has
    line = next(n for n, text in enumerate(own.splitlines(), 1) if "f.gather(" in text)
    assert [(f.code, f.line) for f in lint(own)] == [("GL001", line)]
    with pytest.raises(RuntimeError, match="same number of dimensions"):
        run_snippet(program)


def test_a_dict_of_tensors_gives_no_item_shape():
    program = LEVELS.replace("ENTRY", ": dict of tensors of shape (B, C, H, W)")
    assert lint(program[:program.index("if __name__")]) == []


def test_a_shape_on_the_line_after_its_entry_is_read():
    from gather_lint.static.shape_text import parse_docstring

    doc = "Args:\n    x: input of shape\n        (B, T, D)\n"
    assert str(parse_docstring(doc, ["x"])["x"][0]) == "[B, T, D]"
