"""Subscripts with several keys: torch selects the ints first, None adds a dim of 1, and the tensor keys
(integer ids, lists of ints, bool masks) broadcast to one shape, which takes the place of the dims they
index when they stand together and comes first when a slice or None parts them. Each shape the analysis
infers is the one torch gives."""
import pytest

from gather_lint.static.analyzer import explain_shapes

SETUP = """
import torch
def f():
    x = torch.zeros(5, 6, 7, 8)
    i = torch.tensor([1, 2])
    j = torch.tensor([[0], [1], [2]])
    m = torch.ones(5, 6, dtype=torch.bool)
    out = x[{key}]
    return out
"""

KEYS = [
    "i, j",                  # adjacent: [3, 2] in place
    ":, i, j",
    "i, :, j",               # parted by a slice: first
    ":, i, :, 0",            # the int selects first: [5, 2, 7], not [2, 5, 7]
    "0, i, :, i",
    "None, i, i",
    "i, None, i",            # parted by None
    "..., i, i",
    "i, ..., i",
    "[0, 1], i",
    "i, [1, 2]",
    "i, 1:3",
    ":, None, i",
    "i[:, None], i",
    "m, :, torch.tensor([1])",  # a mask's True positions broadcast with the ids
]


def _inferred(key: str):
    code = SETUP.format(key=key)
    facts = {name: fact for _, _, trace in explain_shapes(code, "x.py") for _, name, fact in trace}
    out = facts.get("out")
    return None if out is None or out.shape is None else out.shape.dims


@pytest.mark.parametrize("key", KEYS)
def test_shape_of_several_keys_is_torchs(key, torch):
    scope = {"torch": torch}
    exec(SETUP.format(key=key), scope)
    expected = tuple(scope["f"]().shape)
    inferred = _inferred(key)
    assert inferred is not None, key
    assert tuple(d if isinstance(d, int) else None for d in inferred) == tuple(
        None if key.startswith("m") and n == 0 else s for n, s in enumerate(expected)), (key, inferred, expected)


def test_keys_that_cannot_broadcast_give_no_shape(torch):
    code = SETUP.format(key="i, torch.tensor([0, 1, 2])")
    facts = {name: fact for _, _, trace in explain_shapes(code, "x.py") for _, name, fact in trace}
    assert facts["out"].shape is None
    scope = {"torch": torch}
    exec(code, scope)
    with pytest.raises(IndexError, match="could not be broadcast"):
        scope["f"]()


RANK = """
import torch
def critic(q_dim: int, batch: int):
    actions = torch.zeros((64, 4, 1), dtype=torch.long)
    ids0 = torch.randint(64, size=(batch,))
    ids1 = torch.randint(4, size=(batch,))
    action = actions[ids0, ids1]{tail}
    q = torch.randn(batch, q_dim)
    return q.gather(1, action.unsqueeze(1))
"""


@pytest.mark.parametrize("tail, fires", [("", True), (".squeeze(-1)", False)])
def test_rank_of_a_row_picked_with_two_keys(tail, fires, torch):
    from .conftest import codes
    assert (codes(RANK.format(tail=tail)) == ["GL001"]) == fires
    scope = {"torch": torch}
    exec(RANK.format(tail=tail), scope)
    if fires:
        with pytest.raises(RuntimeError, match="same number of dimensions"):
            scope["critic"](3, 8)
    else:
        assert scope["critic"](3, 8).shape == (8, 1)
