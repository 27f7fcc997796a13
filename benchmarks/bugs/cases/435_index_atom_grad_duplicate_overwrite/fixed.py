import torch
from jaxtyping import Float, Int
from torch import Tensor


class IndexRows(torch.autograd.Function):
    """y = table[idx] with a hand-written backward (used by the expression compiler,
    which also needs the derivative of an index atom outside autograd)."""

    @staticmethod
    def forward(ctx, table: Float[Tensor, "rows dim"], idx: Int[Tensor, "n"]) -> Float[Tensor, "n dim"]:
        ctx.save_for_backward(idx)
        ctx.num_rows = table.size(0)
        return table[idx]

    @staticmethod
    def backward(ctx, grad_out: Float[Tensor, "n dim"]):
        (idx,) = ctx.saved_tensors
        return index_atom_vjp(grad_out, idx, ctx.num_rows), None


def index_atom_vjp(grad_out: Float[Tensor, "n dim"], idx: Int[Tensor, "n"], num_rows: int) -> Float[Tensor, "rows dim"]:
    grad_table = grad_out.new_zeros(num_rows, grad_out.size(-1))
    grad_table.index_add_(0, idx, grad_out)
    return grad_table


def objective(table: Float[Tensor, "rows dim"], idx: Int[Tensor, "n"], weights: Float[Tensor, "n dim"]) -> Float[Tensor, ""]:
    picked = IndexRows.apply(table, idx)
    return (weights * picked).sum() + 0.5 * picked.pow(2).sum()


if __name__ == "__main__":
    torch.manual_seed(0)
    table = torch.randn(6, 3, requires_grad=True)
    idx = torch.tensor([0, 2, 2, 5, 2, 0])
    weights = torch.randn(6, 3)
    objective(table, idx, weights).backward()
    ref = torch.zeros(6, 3)
    t = table.detach()
    for k in range(idx.numel()):
        r = int(idx[k])
        ref[r] += weights[k] + t[r]
    assert torch.allclose(table.grad, ref, atol=1e-6)
    print("ok")
