"""A custom autograd Function's backward reads what its forward left on ctx: `ctx.saved_tensors` are the
tensors given to `ctx.save_for_backward`, and `ctx.<name>` the values stored there, with their shapes."""
import pytest

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


APPLIED = """
import torch
from torch import nn


class CenterLossFunction(torch.autograd.Function):
    @staticmethod
    def forward(ctx, feature, label, centers):
        ctx.save_for_backward(feature, label, centers)
        return (feature - centers.index_select(0, label)).pow(2).sum() / 2.0

    @staticmethod
    def backward(ctx, grad_output):
        feature, label, centers = ctx.saved_tensors
        diff = centers.index_select(0, label) - feature
        counts = centers.new_ones(centers.size(0))
        counts.scatter_add_(0, label, torch.ones_like(counts))
        grad_centers = torch.zeros_like(centers).index_add_(0, label, diff)
        return -grad_output * diff, None, grad_output * grad_centers / counts.view(-1, 1)


class CenterLoss(nn.Module):
    def __init__(self, num_classes, feat_dim):
        super().__init__()
        self.centers = nn.Parameter(torch.randn(num_classes, feat_dim))

    def forward(self, label, feat):
        return CenterLossFunction.apply(feat, label, self.centers)


if __name__ == "__main__":
    torch.manual_seed(0)
    loss = CenterLoss(10, 2)(torch.randint(0, 10, (16,)), torch.randn(16, 2, requires_grad=True))
    loss.backward()
    RESULT = loss
"""


def test_apply_runs_the_backward_with_the_call_s_facts(torch):
    """`Fn.apply(feat, label, centers)` with 16 labels and 10 centers: the backward scatters 16 labels with 10
    ones, which torch refuses when the loss is differentiated."""
    from .snippets import run_program
    assert codes(APPLIED) == ["GL003"]
    with pytest.raises(RuntimeError, match="no larger"):
        run_program(APPLIED)
    fixed = APPLIED.replace("torch.ones_like(counts)", "torch.ones_like(label, dtype=counts.dtype)")
    assert codes(fixed) == []
    run_program(fixed)
