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


GUARDED = '''
import torch

def last_pooling(data, padding_mask=None):
    if padding_mask is None:
        lengths = torch.full((data.size(0),), data.size(1))
    else:
        lengths = padding_mask.long().sum(dim=1)
    return data[torch.arange(data.size(0)), lengths - 1]

def pool(data, padding_mask=None):
    return last_pooling(data, PASS)

if __name__ == "__main__":
    OUT = pool(torch.randn(4, 7, 3), torch.ones(4, 7))
'''


def test_a_none_guard_on_a_tensor_the_caller_made_is_decided():
    """`padding_mask is None` of a mask the caller computed is False on that call's path: the else branch's
    lengths alone reach the read, and their known size meets the row numbers'."""
    from gather_lint.static import passed_tensors  # the guard is decided here, not by a default
    import ast
    code = GUARDED.replace("PASS", "padding_mask.bool()")
    assert lint(code) == []
    assert tuple(run_snippet(code)["OUT"].shape) == (4, 3)
    tree = ast.parse("x is None")
    class Interp:  # a parameter still holding what the call passed, then rebound
        passed_tensors = {"x": object()}
        env = dict(passed_tensors)
    assert passed_tensors.decided_is_none(Interp, tree.body[0].value) is False
    Interp.env = {"x": object()}
    assert passed_tensors.decided_is_none(Interp, tree.body[0].value) is None
