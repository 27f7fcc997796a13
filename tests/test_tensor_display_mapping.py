"""`q, k, v = (t.float() for t in (q, k, v))` maps each tensor of the display on its own: each name keeps its
own shape and dtype, as Python binds them, instead of what the tensors share. Block-sparse attention that
gathers keys with an unexpanded index after such a line reads only channel 0, silently. Each claim runs in
torch."""
import pytest

from .conftest import lint
from .snippets import call_run as run

torch = pytest.importorskip("torch")

SELECTED = '''
import torch

def selected_keys(keys, ids):
    """
    Args:
        keys (Tensor): keys of shape `[T, H, D]`.
        ids (LongTensor): selected positions of shape `[S, H]`.
    """
    keys, ids = (t.contiguous() for t in (keys, ids))
    return keys.gather(0, ids.unsqueeze(-1))

def run():
    torch.manual_seed(0)
    return selected_keys(torch.randn(16, 2, 8), torch.randint(0, 16, (5, 2)))
'''


def test_each_tensor_keeps_its_shape_and_the_unexpanded_index_is_found():
    found = lint(SELECTED)
    assert [(f.code, f.line) for f in found] == [("GL005", 11)]
    assert "[T, H, D]" in found[0].message or "D" in found[0].message
    out = run(SELECTED)
    assert out.shape == (5, 2, 1)  # one of the 8 channels read


@pytest.mark.parametrize("old, new", [
    ("(t.contiguous() for t in (keys, ids))", "[t.contiguous() for t in (keys, ids)]"),
    ("(t.contiguous() for t in (keys, ids))", "(x.clone() for x in [keys, ids])"),
    ("    keys, ids = (t.contiguous() for t in (keys, ids))",
     "    made = tuple(t.contiguous() for t in (keys, ids))\n    keys, ids = made"),
])
def test_other_spellings_keep_the_finding(old, new):
    code = SELECTED.replace(old, new)
    assert code != SELECTED
    assert [f.code for f in lint(code)] == ["GL005"]
    assert run(code).shape == (5, 2, 1)


def test_the_expanded_index_is_left_alone():
    fixed = SELECTED.replace("ids.unsqueeze(-1))", "ids.unsqueeze(-1).expand(-1, -1, keys.size(-1)))")
    assert lint(fixed) == []
    out = run(fixed)
    assert out.shape == (5, 2, 8)
    torch.manual_seed(0)
    keys, ids = torch.randn(16, 2, 8), torch.randint(0, 16, (5, 2))
    expected = torch.stack([torch.stack([keys[ids[s, h], h] for h in range(2)]) for s in range(5)])
    assert torch.equal(out, expected)


def test_a_float_and_an_int_tensor_keep_their_own_dtypes():
    # ids stays int64 beside a float tensor: nothing makes it a float index
    code = SELECTED.replace("(t.contiguous() for t in (keys, ids))", "(t * 1 for t in (keys, ids))")
    assert [f.code for f in lint(code)] == ["GL005"]
    assert run(code).shape == (5, 2, 1)


def test_map_with_a_lambda_maps_each_tensor_too():
    code = SELECTED.replace("(t.contiguous() for t in (keys, ids))", "map(lambda t: t.contiguous(), (keys, ids))")
    assert code != SELECTED
    assert [f.code for f in lint(code)] == ["GL005"]
    assert run(code).shape == (5, 2, 1)
