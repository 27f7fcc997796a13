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
        grad_weight[ids] += grad_out
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
    print("grad row 3 / readout (token appears 3 times):", (weight.grad[3] / readout).tolist())
    print("grad row 7 / readout (token appears 2 times):", (weight.grad[7] / readout).tolist())
