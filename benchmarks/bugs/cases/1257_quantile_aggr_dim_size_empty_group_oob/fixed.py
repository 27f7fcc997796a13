import torch


def sort_within_groups(x, index):
    """Sort the rows of every feature column inside each group.

    Args:
        x (Tensor): [N, F] node features.
        index (LongTensor): [N] group id of every node, sorted ascending.

    Returns:
        Tensor: [N, F] features, sorted per column within each group.
    """
    span = (x.max() - x.min()).item() + 1.0
    key = index.unsqueeze(1).to(x.dtype) * span + (x - x.min())
    perm = key.argsort(dim=0)
    return x.gather(0, perm)


def quantile_aggregate(x, index, q=0.5, dim_size=None, fill_value=0.0):
    """Per-group quantile (lower interpolation) of node features.

    Args:
        x (Tensor): [N, F] node features.
        index (LongTensor): [N] sorted group ids in [0, dim_size).
        q (float): quantile in [0, 1].
        dim_size (int, optional): number of groups G (graphs in the batch).
        fill_value (float): value for groups without nodes.

    Returns:
        Tensor: [G, F] quantiles.
    """
    if dim_size is None:
        dim_size = int(index.max()) + 1
    count = torch.bincount(index, minlength=dim_size)
    ptr = torch.cat([count.new_zeros(1), count.cumsum(0)[:-1]])
    x_sorted = sort_within_groups(x, index)
    pos = ptr + torch.floor(q * (count - 1).clamp(min=0)).long()
    out = x_sorted.index_select(0, pos.clamp(max=x.size(0) - 1))
    out[count == 0] = fill_value
    return out


if __name__ == "__main__":
    torch.manual_seed(0)
    x = torch.randn(7, 3)
    batch = torch.tensor([0, 0, 0, 1, 1, 2, 2])
    out = quantile_aggregate(x, batch, q=0.5, dim_size=4)
    assert out.shape == (4, 3)
    for g in range(4):
        for f in range(3):
            vals = sorted(x[i, f].item() for i in range(7) if int(batch[i]) == g)
            ref = vals[int(0.5 * (len(vals) - 1))] if vals else 0.0
            assert abs(out[g, f].item() - ref) < 1e-6
    print("ok")
