"""A nested function reads the facts of the names its enclosing function binds once (closure_facts.py)."""
import textwrap

import pytest

from .conftest import codes

# a helper that builds a scatter closure: the index is made outside, used inside (shape comments stay
# in the function they sit in, so the facts here are a constructor's and a docstring's)
FACTORY = """
import torch
def make_pool(n_items: int, n_slots: int, dim: int):
    slot = torch.randint(0, n_slots, (n_items,)){index_tail}
    {rebind}
    def pool(feats):
        '''Args:
            feats (Tensor of shape (n_items, dim)): one row per item.
        '''
        out = torch.zeros(n_slots, dim)
        return out.scatter_add(0, slot{use}, feats)
    return pool
"""


@pytest.mark.parametrize("index_tail, use, rebind, fires", [
    (".unsqueeze(1)", "", "", True),                       # [G, 1] against src [G, D]
    ("[:, None]", "", "", True),                           # the same index, spelled by indexing
    (".unsqueeze(1)", ".expand(-1, dim)", "", False),  # the correct form
    (".unsqueeze(1)", "", "slot = slot.repeat(1, 4)", False),     # rebound: not the value at the call
])
def test_closure_index_reaches_the_nested_scatter(index_tail, use, rebind, fires):
    code = FACTORY.format(index_tail=index_tail, use=use, rebind=rebind)
    assert (codes(code) == ["GL009"]) == fires, code


def test_what_torch_does_with_the_unexpanded_closure_index(torch):
    counts, feats = torch.randn(5, 3), torch.randn(5, 4)
    slot = counts.argmax(dim=1).unsqueeze(1)
    short = torch.zeros(3, 4).scatter_add(0, slot, feats)
    full = torch.zeros(3, 4).scatter_add(0, slot.expand(-1, 4), feats)
    assert torch.equal(short[:, 0], full[:, 0]) and not torch.equal(short, full)  # silently column 0 only


def test_annotated_closure_in_a_method_factory():
    code = """
    import torch
    import torch.nn as nn
    from jaxtyping import Float, Int
    from torch import Tensor

    class Reducer(nn.Module):
        def build(self, picks: Int[Tensor, "n m 1"]):
            def apply(values: Float[Tensor, "n t h"], rows: Float[Tensor, "n m h"]):
                return values.scatter_reduce(1, picks, rows, reduce="amax")
            return apply
    """
    assert codes(code) == ["GL009"]


def test_reassigned_after_the_def_stays_silent():
    code = """
    import torch
    def outer(table):
        # table: [N, D]
        ids = torch.zeros(4, 1, dtype=torch.long)
        def read():
            return table.gather(0, ids)
        ids = torch.zeros(4, 8, dtype=torch.long)
        return read()
    """
    assert codes(code) == []


def test_defined_in_a_loop_stays_silent():
    code = """
    import torch
    def outer(tables):
        fns = []
        for t in tables:
            ids = torch.zeros(4, dtype=torch.long)
            def read(x):
                # x: [N, D]
                return x.gather(0, ids)
            fns.append(read)
        return fns
    """
    assert codes(code) == []


def test_nonlocal_rebinding_stays_silent():
    code = """
    import torch
    def outer():
        ids = torch.zeros(4, dtype=torch.long)
        def grow():
            nonlocal ids
            ids = torch.zeros(4, 3, dtype=torch.long)
        def read(x):
            # x: [N, D]
            return x.gather(0, ids)
        grow()
        return read
    """
    assert codes(code) == []


def test_rank_mismatch_through_a_closure(torch):
    code = """
    import torch
    def picker(k):
        order = torch.randperm(10)[:k]
        def pick(x):
            # x: [10, 6]
            return x.gather(1, order)
        return pick
    """
    assert codes(code) == ["GL001"]
    with pytest.raises(RuntimeError):
        torch.randn(10, 6).gather(1, torch.randperm(10)[:3])


SPLIT_HEADS = """
import torch
import torch.nn as nn

class SelfAttention(nn.Module):
    def __init__(self, n_heads: int, dim_per_head: int):
        super().__init__()
        self.n_heads, self.dim_per_head = n_heads, dim_per_head

    def forward(self, hidden, keep):
        '''Args:
            hidden (Tensor of shape (batch, length, width)): the layer input.
            keep (Tensor of shape (batch, length)): positions to keep per row.
        '''
        bs = hidden.size(0)
        {helper}
        heads = shape(hidden)
        return heads.gather(2, keep{tail})
"""

HELPERS = [
    "def shape(x):\n            return x.view(bs, -1, self.n_heads, self.dim_per_head).transpose(1, 2)",
    "def shape(x):\n            '''split the heads'''\n            out = x.reshape(bs, -1, self.n_heads, self.dim_per_head)\n            return out.permute(0, 2, 1, 3)",
]


@pytest.mark.parametrize("helper", HELPERS)
@pytest.mark.parametrize("tail, fires", [("", True), ("[:, None, :, None].expand(-1, self.n_heads, -1, self.dim_per_head)", False)])
def test_a_local_helper_is_run_with_the_call_and_the_closure(helper, tail, fires):
    code = SPLIT_HEADS.format(helper=helper, tail=tail)
    assert (codes(code) == ["GL001"]) == fires, code


def test_a_rebound_local_helper_is_not_followed():
    code = SPLIT_HEADS.format(helper=HELPERS[0] + "\n        shape = getattr(self, \"split_heads\")", tail="")
    assert codes(code) == []


def test_attribute_the_enclosing_method_writes_is_not_carried():
    code = """
    import torch
    import torch.nn as nn

    class Pool(nn.Module):
        def __init__(self, n: int, d: int):
            super().__init__()
            self.bank = torch.zeros(n, d)

        def forward(self, ids):
            '''Args:
                ids (Tensor of shape (n,)): rows.
            '''
            def read():
                return self.bank.gather(0, ids)
            self.bank = self.bank.sum(0)
            return read()
    """
    assert codes(code) == []


def test_split_heads_torch_shapes(torch):
    hidden = torch.randn(2, 5, 12)
    heads = hidden.view(2, -1, 3, 4).transpose(1, 2)
    assert heads.shape == (2, 3, 5, 4)
    with pytest.raises(RuntimeError, match="same number of dimensions"):
        heads.gather(2, torch.zeros(2, 5, dtype=torch.long))
