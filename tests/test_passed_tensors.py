"""A tensor the caller computed and passed is a tensor on that path: `isinstance(slots, torch.Tensor)` is
decided, and a guard that converts lists to int64 does not run for it. An int32 slice of an allocator's
slots handed to `index_copy_` raises, as torch says; a list is converted and an int64 tensor is fine. Each
claim runs in torch."""
import pytest

from .conftest import lint
from .snippets import run_snippet

torch = pytest.importorskip("torch")

OFFLOAD = '''
import torch

class SlotCache:
    def __init__(self, size):
        self.free = torch.arange(0, size, dtype=torch.int32)
        self.buffer = torch.zeros(size, 3)

    def alloc(self, n):
        return self.free[:n]

    def offload(self, slots, rows):
        if not isinstance(slots, torch.Tensor):
            slots = torch.tensor(slots, dtype=torch.long)
        self.buffer.index_copy_(0, slots, rows)

if __name__ == "__main__":
    cache = SlotCache(10)
    PASS
'''


@pytest.mark.parametrize("passed", [
    "cache.offload(cache.alloc(2), torch.randn(2, 3))",
    "slots = cache.alloc(2)\n    cache.offload(slots, torch.randn(2, 3))",
    "cache.offload(slots=cache.free[3:5], rows=torch.randn(2, 3))",
])
def test_an_int32_tensor_the_caller_made_skips_the_guard_and_is_found(passed):
    code = OFFLOAD.replace("PASS", passed)
    assert [f.code for f in lint(code)] == ["GL008"]
    with pytest.raises(RuntimeError, match="long tensor for index|int64|Long"):
        run_snippet(code)


@pytest.mark.parametrize("passed", [
    "cache.offload([4, 1], torch.randn(2, 3))",
    "cache.offload(cache.alloc(2).long(), torch.randn(2, 3))",
])
def test_a_list_or_an_int64_tensor_is_left_alone(passed):
    code = OFFLOAD.replace("PASS", passed)
    assert lint(code) == []
    run_snippet(code)



CUSTOM_FUNCTION = '''
import torch

class PickRows(torch.autograd.Function):
    @staticmethod
    def forward(ctx, table, rows, scale, shift, bias):
        ctx.save_for_backward(rows)
        ctx.size, ctx.scale = table.shape[0], scale
        return table.index_select(0, rows) * scale + shift + bias

    @staticmethod
    def backward(ctx, grad):
        (rows,) = ctx.saved_tensors
        full = torch.zeros(ctx.size, grad.shape[1]).index_add_(0, rows, grad)
        return full * ctx.scale, None, None, None, None

def pick(table, rows):
    return PickRows.apply(table, rows, 2.0, 0.5, torch.zeros(3))

if __name__ == "__main__":
    table = torch.randn(6, 3, requires_grad=True)
    pick(table, torch.tensor([1, 4, 4])).sum().backward()
    grad = table.grad
'''


def test_a_backward_run_with_fewer_values_than_the_apply_call_has_arguments():
    """The backward of a custom Function gets (ctx, grad), not the five arguments of `.apply(...)`: none of them
    is bound to its parameters (this raised inside the analysis, a GL000)."""
    assert lint(CUSTOM_FUNCTION) == []
    assert run_snippet(CUSTOM_FUNCTION)["grad"][4].tolist() == [4.0, 4.0, 4.0]
