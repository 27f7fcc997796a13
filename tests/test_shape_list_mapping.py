"""`tuple(shape[i] for i in order)` maps a literal order one item at a time: the result has as many sizes as
the order has items, whether or not each size is known. A 5-d KV cache reshaped by a 4-item order and copied
back with `index_copy_` raises, as torch says; the 5-item order works. Each claim runs in torch."""
import pytest

from .conftest import lint
from .snippets import call_run as run

torch = pytest.importorskip("torch")

RELAYOUT = '''
import torch

def relayout(cache, indices):
    """
    Args:
        cache (torch.Tensor): ``[num_blocks, 2, block_size, num_kv_heads, head_dim]``.
        indices (torch.LongTensor): ``[num_received]``.
    """
    blocks = cache.index_select(0, indices)
    target_shape = list(blocks.shape)
    target_shape[0] = -1
    order = [0, 2, 1, 3]
    src_shape = tuple(target_shape[i] for i in order)
    permuted = blocks.reshape(src_shape).permute(*order)
    cache.index_copy_(0, indices, permuted)
    return cache

def run():
    return relayout(torch.randn(8, 2, 4, 2, 3), torch.tensor([5, 1, 6]))
'''


@pytest.mark.parametrize("old, new", [
    (None, None),
    ("tuple(target_shape[i] for i in order)", "[target_shape[i] for i in order]"),
    ("    order = [0, 2, 1, 3]\n", "    order = (0, 2, 1, 3)\n"),
    ("blocks.reshape(src_shape).permute(*order)", "blocks.view(*src_shape).permute(order)"),
])
def test_a_four_item_order_of_a_five_d_cache_is_found(old, new):
    code = RELAYOUT if old is None else RELAYOUT.replace(old, new)
    assert code.count("order") >= 2 and (old is None or code != RELAYOUT)
    assert [f.code for f in lint(code)] == ["GL001"]
    with pytest.raises((IndexError, RuntimeError), match="dimensionality|dim"):
        run(code)


def test_the_full_order_is_left_alone():
    fixed = RELAYOUT.replace("order = [0, 2, 1, 3]", "order = [0, 1, 3, 2, 4]")
    assert lint(fixed) == []
    out = run(fixed)
    assert out.shape == (8, 2, 4, 2, 3)
