import torch


def _size_to_index(size):
    """
    Convert sizes to variadic indexes.

    Parameters:
        size (LongTensor): size of each sample, shape :math:`(N,)`
    """
    return torch.arange(len(size), device=size.device).repeat_interleave(size)


def scatter_max(input, index, dim_size):
    """
    Max and argmax of ``input`` rows grouped by ``index`` along dim 0.

    Parameters:
        input (Tensor): shape :math:`(B, ...)`
        index (LongTensor): group of each element, same shape as ``input``
        dim_size (int): number of groups :math:`N`

    Returns
        (Tensor, LongTensor): values and global row ids, both of shape :math:`(N, ...)`
    """
    value = input.new_full((dim_size,) + input.shape[1:], float("-inf"))
    value = value.scatter_reduce(0, index, input, reduce="amax")
    row = torch.arange(input.shape[0], device=input.device).view([-1] + [1] * (input.ndim - 1))
    row = torch.where(input == value.gather(0, index), row, input.shape[0])
    argmax = torch.full(value.shape, input.shape[0], dtype=torch.long, device=input.device)
    return value, argmax.scatter_reduce(0, index, row, reduce="amin")


def variadic_max(input, size):
    """
    Compute max over sets with variadic sizes.

    Suppose there are :math:`N` sets, and the sizes of all sets are summed to :math:`B`.

    Parameters:
        input (Tensor): input of shape :math:`(B, ...)`
        size (LongTensor): size of sets of shape :math:`(N,)`

    Returns
        (Tensor, LongTensor): max values and indexes within each set, of shape :math:`(N, ...)`
    """
    index2sample = _size_to_index(size)
    index2sample = index2sample.view([-1] + [1] * (input.ndim - 1))
    index2sample = index2sample.expand_as(input)

    value, index = scatter_max(input, index2sample, len(size))
    index = index - size.cumsum(0) + size
    return value, index


if __name__ == "__main__":
    torch.manual_seed(0)
    num_atoms = torch.tensor([5, 3, 7, 4])
    atom_feature = torch.randn(int(num_atoms.sum()), 16)

    value, index = variadic_max(atom_feature, num_atoms)

    start = 0
    for i, n in enumerate(num_atoms.tolist()):
        block = atom_feature[start:start + n]
        for c in range(block.shape[1]):
            col = block[:, c].tolist()
            assert value[i, c].item() == max(col) and index[i, c].item() == col.index(max(col))
        start += n
    print("per-molecule max atom features:", tuple(value.shape))
