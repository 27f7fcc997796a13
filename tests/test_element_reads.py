"""An element read by position from a list or tuple of like tensors has their shape (element_reads.py):
pieces of chunk/split/unbind kept as a list, lists appended in a loop, tuples of like cache pairs."""
import pytest

from .conftest import codes

PIECES = """
import torch
def pick(n: int, width: int, classes: int):
    scores = torch.randn(n, width, 3 * classes)
    {make}
    labels = torch.randint(0, classes, (n, width{extra}))
    return {piece}.gather(2, labels)
"""


@pytest.mark.parametrize("make, piece", [
    ("pieces = scores.chunk(3, dim=-1)", "pieces[0]"),
    ("pieces = torch.chunk(scores, 3, -1)", "pieces[-1]"),
    ("pieces = scores.split(classes, dim=2)", "pieces[1]"),
    ("pieces = torch.split(scores, classes, dim=-1)", "pieces[2]"),
    ("pieces = scores.unsqueeze(0).expand(4, -1, -1, -1).unbind(0)", "pieces[3]"),
    ("pieces = list(scores.unbind(dim=0))", "pieces[0].unsqueeze(0)"),
])
@pytest.mark.parametrize("extra, fires", [("", True), (", 1", False)])
def test_a_piece_read_by_position(make, piece, extra, fires):
    code = PIECES.format(make=make, piece=piece, extra=extra)
    assert (codes(code) == ["GL001"]) == fires, code


def test_the_pieces_torch_makes(torch):
    scores = torch.randn(2, 5, 3 * 4)
    assert scores.chunk(3, dim=-1)[0].shape == (2, 5, 4)
    assert torch.split(scores, 4, dim=-1)[2].shape == (2, 5, 4)
    labels = torch.randint(0, 4, (2, 5))
    with pytest.raises(RuntimeError, match="same number of dimensions"):
        scores.chunk(3, dim=-1)[0].gather(2, labels)


def test_list_appended_in_a_loop_then_read_back(torch):
    code = """
    import torch
    import torch.nn as nn

    class History(nn.Module):
        def __init__(self, steps: int):
            super().__init__()
            self.steps = steps

        def forward(self, batch: int, actions: int, taken):
            '''Args:
                taken (Tensor of shape (batch,)): the action of every row.
            '''
            seen = []
            for _ in range(self.steps):
                seen.append(torch.randn(batch, actions))
            return seen[-1].gather(1, taken{tail})
    """
    assert codes(code.format(tail="")) == ["GL001"]
    assert codes(code.format(tail=".unsqueeze(1)")) == []
    with pytest.raises(RuntimeError):
        torch.randn(3, 4).gather(1, torch.zeros(3, dtype=torch.long))


def test_like_cache_pairs_read_at_an_unknown_layer():
    code = """
    import torch
    def reorder(n_layers: int, batch: int, heads: int, length: int, hd: int, layer, order):
        '''Args:
            order (Tensor of shape (batch, 1)): the row every beam continues.
        '''
        past = tuple((torch.zeros(batch, heads, length, hd), torch.zeros(batch, heads, length, hd)) for _ in range(n_layers))
        cache = [(torch.zeros(batch, heads, length, hd), torch.zeros(batch, heads, length, hd)), (torch.zeros(batch, heads, length, hd), torch.zeros(batch, heads, length, hd))]
        key = cache[layer][0]
        return key.gather(0, order{tail})
    """
    assert codes(code.format(tail="")) == ["GL001"]
    assert codes(code.format(tail="[:, :, None, None].expand(-1, heads, length, hd)")) == []


def test_unlike_items_read_at_an_unknown_position_stay_unknown():
    code = """
    import torch
    def f(n: int, d: int, i):
        pair = (torch.randn(n, d), torch.randn(n))
        ids = torch.zeros(n, dtype=torch.long)
        return pair[i].gather(0, ids)
    """
    assert codes(code) == []  # pair[1] is 1-d: either may be read


def test_a_dict_of_lists_is_not_read_by_position():
    code = """
    import torch
    def f(n: int, d: int, key):
        table = {"a": torch.randn(n, d)}
        ids = torch.zeros(n, dtype=torch.long)
        return table[key].gather(0, ids)
    """
    assert codes(code) == []


FUSED = """
import torch
import torch.nn as nn

class Attention(nn.Module):
    def __init__(self, dim: int, heads: int):
        super().__init__()
        self.heads, self.head_dim = heads, dim // heads
        self.qkv = nn.Linear(dim, 3 * dim)

    def forward(self, x, batch: int, length: int, keep):
        '''Args:
            keep (Tensor of shape (batch, length)): positions of the heads to keep.
        '''
        fused = torch.randn(batch, length, 3 * self.heads, self.head_dim)
        {split}
        return q.gather(2, keep{tail})
"""


@pytest.mark.parametrize("split", [
    "q, k, v = fused.chunk(3, dim=2)",
    "q, k, v = torch.chunk(fused, 3, dim=-2)",
    "q, k, v = fused.split(self.heads, dim=2)",
    "q = fused.chunk(3, 2)[0]",
])
@pytest.mark.parametrize("tail, fires", [("", True), ("[..., None].expand(-1, -1, self.head_dim)[:, :, None]", False)])
def test_named_multiple_split_into_pieces(split, tail, fires):
    code = FUSED.format(split=split, tail=tail)
    assert (codes(code) == ["GL001"]) == fires, code


def test_fused_pieces_torch_makes(torch):
    fused = torch.randn(2, 5, 3 * 4, 8)
    q, k, v = fused.split(4, dim=2)
    assert q.shape == fused.chunk(3, dim=2)[0].shape == (2, 5, 4, 8)
    with pytest.raises(RuntimeError, match="same number of dimensions"):
        q.gather(2, torch.zeros(2, 5, dtype=torch.long))
