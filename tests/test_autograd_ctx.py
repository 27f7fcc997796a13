"""A custom autograd Function's backward reads what its forward left on ctx: `ctx.saved_tensors` are the
tensors given to `ctx.save_for_backward`, and `ctx.<name>` the values stored there, with their shapes."""
from .conftest import codes
from .snippets import call_run as run

PROGRAM = """
import torch
from torch.autograd import Function


class ColumnPick(Function):
    @staticmethod
    def forward(ctx, features, idx):
        # features: [B, C, N], idx: [B, K]
        ctx.save_for_backward(idx)
        ctx.num_points = features.shape[2]
        return features.gather(2, idx.unsqueeze(1).expand(-1, features.shape[1], -1))

    @staticmethod
    def backward(ctx, grad_out):
        (saved,) = ctx.saved_tensors
        B, C, _ = grad_out.shape
        grad = grad_out.new_zeros(B, C, ctx.num_points)
        grad.scatter_add_(2, saved.unsqueeze(1), grad_out)
        return grad, None


def run():
    feats = torch.randn(2, 3, 6, requires_grad=True)
    ColumnPick.apply(feats, torch.tensor([[0, 4], [1, 5]])).sum().backward()
    return feats.grad
"""


def test_the_saved_index_reaches_the_backward(torch):
    assert codes(PROGRAM) == ["GL009"]  # [B, 1, K] against the gradient's [B, C, K]
    grad = run(PROGRAM)
    assert grad[:, 1:].abs().sum() == 0  # torch: channels 1.. get no gradient, silently
    fixed = PROGRAM.replace("saved.unsqueeze(1), grad_out", "saved.unsqueeze(1).expand(-1, C, -1), grad_out")
    assert codes(fixed) == []
    assert run(fixed)[:, 1:].abs().sum() > 0


def test_a_backward_without_the_forward_s_facts_stays_silent():
    """The same backward in a class whose forward saves nothing: the saved index is unknown."""
    program = PROGRAM.replace("        ctx.save_for_backward(idx)\n", "")
    assert program != PROGRAM
    assert codes(program) == []
