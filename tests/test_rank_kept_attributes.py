"""An attribute that other methods rebind with rank-keeping ops (a cache reordered by index_select, a
buffer rolled or sliced) keeps its __init__ rank everywhere, with sizes unknown (rank_kept_stores.py)."""
import pytest

from .conftest import codes

CACHE = """
import torch
import torch.nn as nn

class KVCache(nn.Module):
    def __init__(self, batch: int, heads: int, length: int, head_dim: int):
        super().__init__()
        self.register_buffer("keys", torch.zeros(batch, heads, length, head_dim))

    def update(self, order):
        self.keys = {rebind}

    def read(self, positions):
        '''Args:
            positions (Tensor of shape (batch, length)): the slots to read.
        '''
        return self.keys.gather(2, positions{tail})
"""


@pytest.mark.parametrize("rebind, kept", [
    ("self.keys.index_select(0, order)", True),
    ("torch.index_select(self.keys, 0, order).contiguous()", True),
    ("self.keys.roll(1, dims=2)", True),
    ("self.keys[:, :, -8:]", True),
    ("self.keys.masked_fill(order, 0.0)", True),
    ("self.keys[order]", False),                  # a tensor key may change the rank
    ("self.keys * order", False),                 # broadcasting may raise it
    ("torch.cat([self.keys, order], dim=2)", False),
    ("self.keys.sum(0)", False),
])
@pytest.mark.parametrize("tail, error", [("", True), ("[:, None, :, None].expand(-1, 4, -1, 8)", False)])
def test_rank_survives_a_rank_keeping_rebinding(rebind, kept, tail, error):
    code = CACHE.format(rebind=rebind, tail=tail)
    assert (codes(code) == ["GL001"]) == (kept and error), code


def test_what_torch_keeps(torch):
    keys = torch.zeros(3, 4, 10, 8)
    order = torch.tensor([2, 2, 0])
    assert keys.index_select(0, order).dim() == keys.roll(1, dims=2).dim() == keys[:, :, -8:].dim() == 4
    assert torch.cat([torch.tensor([]), keys.flatten()]).dim() == 1  # why cat is left out: rank follows the partner
    with pytest.raises(RuntimeError, match="same number of dimensions"):
        keys.index_select(0, order).gather(2, torch.zeros(3, 10, dtype=torch.long))


def test_dim_out_of_range_on_a_weight_rebound_by_gather(torch):
    code = """
    import torch
    import torch.nn as nn

    class WeightedLoss(nn.Module):
        def __init__(self, n_classes: int):
            super().__init__()
            self.weight = torch.ones(n_classes)

        def forward(self, logp, target):
            '''Args:
                logp (Tensor of shape (N, C)): log-probabilities.
                target (Tensor of shape (N,)): class ids.
            '''
            self.weight = self.weight.to(logp.device).gather(0, target)
            return -(logp.gather(1, target[:, None]).squeeze(1) * self.weight).mean()

        def per_class(self, target):
            '''Args:
                target (Tensor of shape (N,)): class ids.
            '''
            return self.weight.index_select(1, target)
    """
    assert codes(code) == ["GL002"]
    with pytest.raises(IndexError):
        torch.ones(4).gather(0, torch.tensor([1, 3])).index_select(1, torch.tensor([0]))
