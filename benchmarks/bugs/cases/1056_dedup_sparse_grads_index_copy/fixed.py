import torch


def deduplicate_indexed_slices(values, indices):
    """Merge gradient rows that belong to the same embedding id before pushing them.

    Args:
        values: (n, dim) gradient rows, one per looked-up id.
        indices: (n,) embedding ids, may repeat.

    Returns:
        (summed_values, unique_indices) with shapes (u, dim) and (u,).
    """
    unique_indices, inverse = torch.unique(indices, return_inverse=True)
    summed = values.new_zeros(unique_indices.numel(), values.size(1))
    summed.index_add_(0, inverse, values)
    return summed, unique_indices


class ParameterServer:
    def __init__(self, vocab, dim, lr=0.1):
        self.table = torch.zeros(vocab, dim)
        self.lr = lr

    def push_gradients(self, values, indices):
        self.table.index_add_(0, indices, values, alpha=-self.lr)


def worker_step(ps, ids, grads):
    values, uniq = deduplicate_indexed_slices(grads, ids)
    ps.push_gradients(values, uniq)


if __name__ == "__main__":
    torch.manual_seed(0)
    ps = ParameterServer(vocab=10, dim=4)
    ids = torch.tensor([3, 7, 3, 3, 1, 7])
    grads = torch.randn(6, 4)
    worker_step(ps, ids, grads)
    ref = torch.zeros(10, 4)
    for i in range(6):
        ref[ids[i]] -= 0.1 * grads[i]
    assert torch.allclose(ps.table, ref, atol=1e-6)
    print("ok")
