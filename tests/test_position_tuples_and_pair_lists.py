"""Index vectors from `nonzero(as_tuple=True)` / `torch.where(mask)`, and lists of like (key, value)
pairs appended per layer: both reach the call that uses them (position_tuples.py, tensor_lists.py)."""
import pytest

from .conftest import codes

POSITIONS = """
import torch
def pick(scores: torch.Tensor, tokens: int, width: int):
    '''Args:
        scores (Tensor of shape (batch, tokens, width)): one score per token and channel.
    '''
    hit = scores.amax(dim=-1) > 0
    {make}
    return {use}
"""


@pytest.mark.parametrize("make, vector", [
    ("rows, cols = hit.nonzero(as_tuple=True)", "cols"),
    ("rows, cols = torch.nonzero(hit, as_tuple=True)", "cols"),
    ("where = torch.where(hit)", "where[1]"),
    ("_, cols = torch.where(hit)", "cols"),
])
@pytest.mark.parametrize("use, fires", [
    ("scores.gather(1, {v})", True),                                   # a 1-d index into 3-d scores
    ("scores.index_select(1, {v})", False),                            # the correct op for a vector
    ("scores.gather(1, {v}[None, :, None].expand(scores.shape[0], -1, width))", False),
])
def test_position_vectors_have_rank_one(make, vector, use, fires):
    code = POSITIONS.format(make=make, use=use.format(v=vector))
    assert (codes(code) == ["GL001"]) == fires, code


def test_the_vectors_torch_returns(torch):
    hit = torch.randn(2, 5) > 0
    rows, cols = hit.nonzero(as_tuple=True)
    assert rows.dim() == cols.dim() == 1 and cols.dtype == torch.long
    assert all(a.equal(b) for a, b in zip(torch.where(hit), (rows, cols)))
    with pytest.raises(RuntimeError, match="same number of dimensions"):
        torch.randn(2, 5, 3).gather(1, cols)


PAIRS = """
import torch
import torch.nn as nn

class Decoder(nn.Module):
    def __init__(self, n_layers: int, heads: int, head_dim: int):
        super().__init__()
        self.n_layers, self.heads, self.head_dim = n_layers, heads, head_dim

    def cache(self, batch: int, length: int):
        pairs = []
        for _ in range(self.n_layers):
            key = torch.zeros(batch, self.heads, length, self.head_dim)
            pairs.append((key, torch.zeros_like(key)))
        return pairs

    def reorder(self, batch: int, length: int, beams):
        '''Args:
            beams (Tensor of shape (batch,)): the row every hypothesis continues.
        '''
        pairs = self.cache(batch, length)
        {read}
"""


@pytest.mark.parametrize("read", [
    "return [(k.gather(0, beams), v.gather(0, beams)) for k, v in pairs]",
    "return pairs[-1][0].gather(0, beams{tail})",
    "return tuple(p[1].gather(0, beams) for p in pairs)",
])
def test_list_of_cache_pairs_appended_per_layer(read):
    fired = codes(PAIRS.format(read=read.replace("{tail}", "")))
    assert fired and set(fired) == {"GL001"}, read


def test_cache_pairs_reordered_by_index_select_stay_silent():
    read = "return [(k.index_select(0, beams), v.index_select(0, beams)) for k, v in pairs]"
    assert codes(PAIRS.format(read=read)) == []


def test_unlike_pairs_make_no_list_fact():
    code = """
    import torch
    def f(n: int, d: int, beams):
        '''Args:
            beams (Tensor of shape (n,)): rows.
        '''
        pairs = []
        pairs.append((torch.zeros(n, d), torch.zeros(n, d)))
        pairs.append((torch.zeros(n), torch.zeros(n)))
        return pairs[0][0].gather(0, beams)
    """
    assert codes(code) == []


def test_cache_gather_rank_torch_rejects(torch):
    key = torch.zeros(3, 2, 4, 5)
    with pytest.raises(RuntimeError, match="same number of dimensions"):
        key.gather(0, torch.tensor([2, 0, 1]))
