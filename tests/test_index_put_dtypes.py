"""GL016 at `x[idx] = v`: an index tensor makes the assignment index_put_, which converts no tensor value.
Each claim runs in torch: the reported writes raise, the silent ones run."""
import pytest

from .conftest import codes, lint
from .snippets import call_run

POOL = """
import torch

def sparse_pool(in_feats, out_maps, num_out):
    unique_maps, inverse = torch.unique(out_maps, return_inverse=True)
    index = inverse.unsqueeze(1).expand(-1, in_feats.size(1))
    pooled = torch.zeros(unique_maps.numel(), in_feats.size(1), dtype=in_feats.dtype)
    pooled.scatter_reduce_(0, index, in_feats, "amax", include_self=False)
    out = torch.zeros(num_out, in_feats.size(1))
    out[unique_maps] = pooled
    return out

def run():
    feats = torch.randn(6, 4, dtype=torch.float64)
    return sparse_pool(feats, torch.tensor([0, 3, 3, 1, 0, 1]), 5)
"""


def test_a_float64_value_written_through_an_index_into_a_fresh_float32_buffer(torch):
    with pytest.raises(RuntimeError, match="Index put requires the source and destination dtypes match"):
        call_run(POOL)
    assert codes(POOL) == ["GL016"]


def test_the_buffer_made_in_the_values_dtype_runs(torch):
    fixed = POOL.replace("out = torch.zeros(num_out, in_feats.size(1))",
                         "out = torch.zeros(num_out, in_feats.size(1), dtype=in_feats.dtype)")
    assert call_run(fixed).dtype == torch.float64
    assert codes(fixed) == []


@pytest.mark.parametrize("write", [
    "out[:3] = pooled",  # a slice: basic indexing converts
    "out[unique_maps] = 1.5",  # a number converts
    "out[0] = pooled[0]",  # an int: basic indexing converts
])
def test_writes_that_convert_stay_silent(torch, write):
    code = POOL.replace("out[unique_maps] = pooled", write)
    assert code != POOL
    assert call_run(code).dtype == torch.float32
    assert codes(code) == []


def test_a_buffer_of_some_float_is_no_evidence_against_float64(torch):
    # `buf` comes from the caller: "float32" would be a guess of the default dtype, and a float64 buffer runs
    code = """
    import torch
    from jaxtyping import Float

    def fill(buf: Float[torch.Tensor, "n d"], rows, feats):
        buf[rows] = feats.double()
        return buf

    def run():
        return fill(torch.zeros(3, 2, dtype=torch.float64), torch.tensor([2, 0]), torch.ones(2, 2))
    """
    assert call_run(code).dtype == torch.float64
    assert codes(code) == []


def test_unique_values_are_one_dimensional(torch):
    values, inverse = torch.unique(torch.tensor([[3, 1], [3, 0]]), return_inverse=True)
    assert values.dim() == 1 and inverse.shape == (2, 2)


def test_the_call_form_index_put_is_the_same_write(torch):
    code = POOL.replace("out[unique_maps] = pooled", "out.index_put_((unique_maps,), pooled)")
    assert code != POOL
    with pytest.raises(RuntimeError, match="Index put requires the source and destination dtypes match"):
        call_run(code)
    found = lint(code)
    assert [f.code for f in found] == ["GL016"] and "out[(unique_maps,)]" in found[0].message
