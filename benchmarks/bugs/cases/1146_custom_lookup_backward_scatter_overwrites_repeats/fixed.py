import torch
from jaxtyping import Float, Int


class RowLookup(torch.autograd.Function):
    """Embedding-style row lookup with a hand-written backward (used for a frozen-layout table)."""

    @staticmethod
    def forward(ctx, table: Float[torch.Tensor, "vocab dim"], ids: Int[torch.Tensor, "n"]) -> Float[torch.Tensor, "n dim"]:
        ctx.save_for_backward(ids)
        ctx.vocab = table.shape[0]
        return table.index_select(0, ids)

    @staticmethod
    def backward(ctx, grad_rows: Float[torch.Tensor, "n dim"]):
        (ids,) = ctx.saved_tensors
        dim = grad_rows.shape[1]
        grad_table = grad_rows.new_zeros(ctx.vocab, dim)
        index: Int[torch.Tensor, "n dim"] = ids.unsqueeze(1).expand(-1, dim)
        grad_table.scatter_add_(0, index, grad_rows)
        return grad_table, None


def bag_score(table: Float[torch.Tensor, "vocab dim"], ids: Int[torch.Tensor, "n"],
              query: Float[torch.Tensor, "dim"]) -> Float[torch.Tensor, ""]:
    rows = RowLookup.apply(table, ids)
    return (rows @ query).sum()


if __name__ == "__main__":
    torch.manual_seed(0)
    table = torch.randn(10, 4, requires_grad=True)
    query = torch.randn(4)
    ids = torch.tensor([3, 7, 3, 1, 3])  # token 3 occurs three times in the bag
    bag_score(table, ids, query).backward()
    expected = torch.zeros(10, 4)
    for t in ids.tolist():
        for d in range(4):
            expected[t, d] += query[d]
    assert torch.allclose(table.grad, expected)
    print("ok")
