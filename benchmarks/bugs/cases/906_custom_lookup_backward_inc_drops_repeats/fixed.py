import torch
from jaxtyping import Float, Int
from torch import Tensor


class RowLookup(torch.autograd.Function):
    @staticmethod
    def forward(ctx, table: Float[Tensor, "vocab dim"], ids: Int[Tensor, "n"]) -> Float[Tensor, "n dim"]:
        ctx.save_for_backward(ids)
        ctx.vocab = table.shape[0]
        return table[ids]

    @staticmethod
    def backward(ctx, grad_out: Float[Tensor, "n dim"]):
        (ids,) = ctx.saved_tensors
        grad_table = grad_out.new_zeros(ctx.vocab, grad_out.shape[1])
        grad_table.index_put_((ids,), grad_out, accumulate=True)
        return grad_table, None


def bag_of_words_score(
    table: Float[Tensor, "vocab dim"], ids: Int[Tensor, "n"], query: Float[Tensor, "dim"]
) -> Float[Tensor, ""]:
    rows = RowLookup.apply(table, ids)
    return (rows @ query).sum()


if __name__ == "__main__":
    torch.manual_seed(0)
    table = torch.randn(10, 4, requires_grad=True)
    query = torch.randn(4)
    ids = torch.tensor([3, 7, 3, 3, 1])
    bag_of_words_score(table, ids, query).backward()
    for v in range(table.shape[0]):
        count = sum(1 for i in ids.tolist() if i == v)
        assert torch.allclose(table.grad[v], count * query, atol=1e-6)
    print("ok")
