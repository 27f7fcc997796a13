"""`F.pad(x, pad, value=c)` holds c on its border and x's own values inside: c is among its values, not all of
them. A border of an ignore label (255) then reaches `one_hot` with the classes of the logits; the inside keeps
what x held, so no finding claims every entry is c. Quarter turns (`rot90`) keep the values and swap the two
dims' sizes on an odd count."""
import pytest

from gather_lint.static.analyzer import explain_shapes

from .conftest import codes

BORDER = """
import torch
import torch.nn.functional as F

def loss(logit, label):
    num_classes = logit.shape[1]
    mask = label != 255
    return F.one_hot(label{fix}, num_classes) * mask[..., None]

if __name__ == "__main__":
    logit = torch.randn(2, 3, 8, 8)
    label = F.pad({inside}, (1, 1, 1, 1), value=255)
    print(loss(logit, label))
"""
INSIDE = ["torch.randint(0, 3, (2, 6, 6))", "torch.rot90(torch.randint(0, 3, (2, 6, 6)), 1, dims=(1, 2))",
          "torch.randint(0, 3, (2, 6, 6)).flip(1)"]


@pytest.mark.parametrize("inside", INSIDE)
@pytest.mark.parametrize("fix, fires", [("", True), (".masked_fill(~mask, 0)", False)])
def test_border_label_reaches_one_hot(inside, fix, fires, torch):
    code = BORDER.format(inside=inside, fix=fix)
    assert (codes(code) == ["GL011"]) == fires, code
    scope = {"__name__": "border"}
    exec(code, scope)
    label = scope["F"].pad(eval(inside, scope), (1, 1, 1, 1), value=255)
    logit = torch.randn(2, 3, 8, 8)
    if fires:
        with pytest.raises(RuntimeError, match="Class values must be smaller than num_classes"):
            scope["loss"](logit, label)
    else:
        assert scope["loss"](logit, label).shape == (2, 8, 8, 3)


def test_pad_keeps_the_inside_values(torch):
    code = """
import torch
import torch.nn.functional as F
def f():
    x = F.pad(torch.randint(0, 3, (2, 6)), (0, 2), value=7)
    return x
"""
    facts = {name: fact for _, _, trace in explain_shapes(code, "x.py") for _, name, fact in trace}
    origin = facts["x"].domain.origin
    assert "include 7" in origin and "all equal" not in origin
    x = torch.nn.functional.pad(torch.randint(0, 3, (2, 6)), (0, 2), value=7)
    assert (x == 7).any() and not (x == 7).all()


@pytest.mark.parametrize("call", ["torch.rot90(x, 1, dims=(1, 2))", "x.rot90(2, [1, 2])", "x.rot90()",
                                  "torch.rot90(x, k=-1, dims=[0, 2])", "x.rot90(3, (0, -1))"])
def test_rot90_shape_is_torchs(call, torch):
    code = f"import torch\ndef f():\n    x = torch.randint(0, 3, (2, 6, 5))\n    y = {call}\n    return y\n"
    facts = {name: fact for _, _, trace in explain_shapes(code, "x.py") for _, name, fact in trace}
    x = torch.randint(0, 3, (2, 6, 5))
    assert facts["y"].shape.dims == tuple(eval(call, {"torch": torch, "x": x}).shape)
    assert facts["y"].dtype == "int64"
