import torch


class RowGather(torch.autograd.Function):
    """Look up rows of a parameter table with a hand-written backward.

    Args:
        table (`torch.Tensor` of shape `(num_rows, dim)`): the parameter table.
        ids (`torch.LongTensor` of shape `(num_lookups,)`): row ids, may repeat.

    Returns:
        `torch.Tensor` of shape `(num_lookups, dim)`.
    """

    @staticmethod
    def forward(ctx, table, ids):
        ctx.save_for_backward(ids)
        ctx.num_rows = table.size(0)
        index = ids.unsqueeze(1).expand(-1, table.size(1))
        return table.gather(0, index)

    @staticmethod
    def backward(ctx, grad_out):
        (ids,) = ctx.saved_tensors
        index = ids.unsqueeze(1).expand(-1, grad_out.size(1))
        grad_table = grad_out.new_zeros(ctx.num_rows, grad_out.size(1))
        grad_table.scatter_add_(0, index, grad_out)
        return grad_table, None


def bag_score(table, ids, weights):
    """Weighted sum of looked-up rows.

    Args:
        table (`torch.Tensor` of shape `(num_rows, dim)`)
        ids (`torch.LongTensor` of shape `(num_lookups,)`)
        weights (`torch.Tensor` of shape `(num_lookups, dim)`)
    """
    return (RowGather.apply(table, ids) * weights).sum()


def reference_grad(num_rows, ids, weights):
    grad = [[0.0] * weights.size(1) for _ in range(num_rows)]
    for k, r in enumerate(ids.tolist()):
        for d in range(weights.size(1)):
            grad[r][d] += float(weights[k, d])
    return torch.tensor(grad)


if __name__ == "__main__":
    torch.manual_seed(0)
    table = torch.randn(6, 3, requires_grad=True)
    ids = torch.tensor([1, 4, 1, 1, 0, 4])
    weights = torch.randn(6, 3)
    bag_score(table, ids, weights).backward()
    assert torch.allclose(table.grad, reference_grad(6, ids, weights), atol=1e-6)
    print("ok")
