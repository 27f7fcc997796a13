"""GL009 says a src longer than its index is cropped to the index's leading rows and that the backward pass
fails. In the forward of a custom autograd Function torch records no graph and the class's own backward
answers for the gradient: the crop is the forward's design there, and nothing is reported."""
import pytest

from .conftest import codes

POOL = """
import torch

class ScatterAddRows(torch.autograd.Function):
    @staticmethod
    def forward(ctx, index, src, num_out):
        ctx.save_for_backward(index)
        ctx.src_shape = src.shape
        out = src.new_zeros(num_out, src.size(1))
        return out.scatter_add_(0, index, src)

    @staticmethod
    def backward(ctx, grad_out):
        (index,) = ctx.saved_tensors
        grad_src = grad_out.new_zeros(ctx.src_shape)
        grad_src[: index.size(0)] = grad_out.gather(0, index)
        return None, grad_src, None

def pool(src, index, num_out):
    return {call}

if __name__ == "__main__":
    src = torch.randn(8, 4, requires_grad=True)
    index = torch.tensor([0, 2, 1, 0, 2, 2]).unsqueeze(1).expand(6, 4)
    pool(src, index, 3).sum().backward()
"""


@pytest.mark.parametrize("call, fires", [
    ("ScatterAddRows.apply(index, src, num_out)", False),
    ("src.new_zeros(num_out, src.size(1)).scatter_add(0, index, src)", True),
])
def test_crop_in_a_functions_forward(call, fires, torch):
    code = POOL.format(call=call)
    assert (codes(code) == ["GL009"]) == fires, code
    scope = {"__name__": "pool"}
    exec(code, scope)
    src = torch.randn(8, 4, requires_grad=True)
    index = torch.tensor([0, 2, 1, 0, 2, 2]).unsqueeze(1).expand(6, 4)
    out = scope["pool"](src, index, 3).sum()
    if fires:
        with pytest.raises(RuntimeError, match="invalid gradient"):
            out.backward()
    else:
        out.backward()
        assert src.grad.shape == (8, 4) and src.grad[6:].abs().sum() == 0


@pytest.mark.parametrize("call, fires", [
    ("ScatterAddRows.apply(index, src, num_out)", False),
    ("src.new_zeros(num_out, src.size(1)).scatter_add(0, index, src)", True),
])
def test_runtime_reads_a_functions_forward_the_same_way(call, fires, torch):
    import warnings

    from gather_lint.runtime import checking

    scope = {"__name__": "pool"}
    exec(POOL.format(call=call), scope)
    src = torch.randn(8, 4, requires_grad=True)
    index = torch.tensor([0, 2, 1, 0, 2, 2]).unsqueeze(1).expand(6, 4)
    with warnings.catch_warnings(record=True) as seen:
        warnings.simplefilter("always")
        with checking():
            out = scope["pool"](src, index, 3)
    assert any("GL009" in str(w.message) for w in seen) == fires, [str(w.message) for w in seen]
    if not fires:
        out.sum().backward()  # the Function's own backward: src-shaped
        assert src.grad.shape == (8, 4)
