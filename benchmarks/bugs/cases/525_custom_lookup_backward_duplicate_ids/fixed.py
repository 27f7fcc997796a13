import torch


class RowLookup(torch.autograd.Function):
    """Embedding lookup with a hand-written backward (used for a sparse optimizer)."""

    @staticmethod
    def forward(ctx, weight, ids):
        # weight: [V, D], ids: [N] -> out: [N, D]
        ctx.save_for_backward(ids)
        ctx.num_rows = weight.shape[0]
        return weight[ids]

    @staticmethod
    def backward(ctx, grad_out):
        # grad_out: [N, D] -> grad_weight: [V, D]
        (ids,) = ctx.saved_tensors
        grad_weight = grad_out.new_zeros(ctx.num_rows, grad_out.shape[1])
        grad_weight.index_add_(0, ids, grad_out)
        return grad_weight, None


def bag_of_words_score(weight, ids, readout):
    # ids: [N] token ids of one document (repeats allowed); readout: [D]
    vectors = RowLookup.apply(weight, ids)  # [N, D]
    return (vectors.sum(0) * readout).sum()


if __name__ == "__main__":
    torch.manual_seed(0)
    weight = torch.randn(10, 4, requires_grad=True)
    readout = torch.randn(4)
    ids = torch.tensor([3, 7, 3, 3, 1, 7])
    bag_of_words_score(weight, ids, readout).backward()
    ref = torch.zeros(10, 4)
    for i in ids.tolist():
        for d in range(4):
            ref[i, d] += readout[d]
    assert torch.allclose(weight.grad, ref)
    w2 = weight.detach().clone().requires_grad_(True)
    (w2[ids].sum(0) * readout).sum().backward()
    assert torch.allclose(weight.grad, w2.grad)
    print("ok")
