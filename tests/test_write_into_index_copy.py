"""GL031: a write through the copy an advanced index makes leaves the tensor unchanged; writes through views
(ints, slices, a 0-d int tensor) and single-subscript writes (index_put_) reach it. Each claim runs in torch."""
import pytest

from .conftest import lint
from .snippets import call_run as run

torch = pytest.importorskip("torch")

SCALE = '''
import torch

def scale_high(adv, group, high, alpha):
    """
    Args:
        adv (Tensor): shape (N,).
        group (BoolTensor): shape (N,).
        high (BoolTensor): shape (G,), one per member of the group.
    """
    adv[group][high] *= 1 + alpha
    return adv

def run():
    adv = torch.arange(8.0)
    group = torch.tensor([True, True, False, True, False, True, True, False])
    high = torch.tensor([True, False, True, False, True])
    return scale_high(adv.clone(), group, high, 1.0), adv
'''


def test_a_chained_mask_write_changes_a_copy():
    found = lint(SCALE)
    assert [(f.code, f.line) for f in found] == [("GL031", 11)]
    assert "copy" in found[0].message and "`adv` is left unchanged" in found[0].message
    scaled, original = run(SCALE)
    assert torch.equal(scaled, original)  # nothing was scaled


@pytest.mark.parametrize("write", [
    "adv[group][high] = 0.0",
    "adv[group][0] = 0.0",
    "rows = group.nonzero(as_tuple=True)[0]\n    adv[rows][high] += alpha",
    "adv[group][high].mul_(1 + alpha)",
    "adv[[0, 3, 5]].zero_()",
])
def test_other_writes_through_the_copy(write):
    code = SCALE.replace("adv[group][high] *= 1 + alpha", write)
    assert [f.code for f in lint(code)] == ["GL031"]
    scaled, original = run(code)
    assert torch.equal(scaled, original)


@pytest.mark.parametrize("write", [
    "adv[group.nonzero(as_tuple=True)[0][high]] *= 1 + alpha",  # one subscript: index_put_ into adv
    "adv[1:][group[1:]] *= 1 + alpha",  # a slice is a view
    "adv.view(2, 4)[0][group[:4]] *= 1 + alpha",  # an int is a view
    "adv[torch.tensor(1)] *= 1 + alpha",  # a 0-d int tensor is an int
])
def test_writes_through_views_or_one_subscript_are_left_alone(write):
    code = SCALE.replace("adv[group][high] *= 1 + alpha", write)
    assert lint(code) == []
    scaled, original = run(code)
    assert not torch.equal(scaled, original)


def test_a_key_of_unknown_kind_is_left_alone():
    # `which` may be an int or a slice: nothing certain about a copy
    code = SCALE.replace("adv[group][high] *= 1 + alpha", "adv[which][high] *= 1 + alpha") \
        .replace("def scale_high(adv, group, high, alpha):", "def scale_high(adv, group, high, alpha, which=slice(None)):")
    assert lint(code) == []
