from typing import Optional

import torch


def batch_to_ptr(batch: torch.Tensor, batch_size: int) -> torch.Tensor:
    deg = batch.new_zeros(batch_size, dtype=torch.long)
    deg.scatter_add_(0, batch, torch.ones_like(batch))
    ptr = deg.new_zeros(batch_size + 1)
    torch.cumsum(deg, 0, out=ptr[1:])
    return ptr


def knn(x: torch.Tensor, y: torch.Tensor, k: int,
        batch_x: Optional[torch.Tensor] = None,
        batch_y: Optional[torch.Tensor] = None) -> torch.Tensor:
    r"""Finds for each element in :obj:`y` the :obj:`k` nearest points in :obj:`x`.

    Args:
        x (Tensor): Node feature matrix :math:`\mathbf{X} \in \mathbb{R}^{N \times F}`.
        y (Tensor): Node feature matrix :math:`\mathbf{Y} \in \mathbb{R}^{M \times F}`.
        k (int): The number of neighbors.
        batch_x (LongTensor, optional): Sorted batch vector :math:`\mathbf{b} \in {\{ 0, \ldots, B-1\}}^N`,
            which assigns each node of :obj:`x` to a specific example.
        batch_y (LongTensor, optional): Sorted batch vector :math:`\mathbf{b} \in {\{ 0, \ldots, B-1\}}^M`,
            which assigns each node of :obj:`y` to a specific example.

    :rtype: :class:`LongTensor` of shape :math:`(2, M \cdot k)`: row 0 indexes :obj:`y`, row 1 indexes :obj:`x`.
    """
    x = x.view(-1, 1) if x.dim() == 1 else x
    y = y.view(-1, 1) if y.dim() == 1 else y

    if batch_x is None:
        batch_x = x.new_zeros(x.size(0), dtype=torch.long)
    if batch_y is None:
        batch_y = y.new_zeros(y.size(0), dtype=torch.long)

    batch_size = max(int(batch_x.max()), int(batch_y.max())) + 1
    ptr_x = batch_to_ptr(batch_x, batch_size)
    ptr_y = batch_to_ptr(batch_y, batch_size)

    rows, cols = [], []
    for b in range(ptr_y.numel() - 1):
        y_start, y_end = int(ptr_y[b]), int(ptr_y[b + 1])
        x_start, x_end = int(ptr_x[b]), int(ptr_x[b + 1])
        if y_end == y_start or x_end == x_start:
            continue
        dist = torch.cdist(y[y_start:y_end], x[x_start:x_end])
        nearest = dist.topk(min(k, x_end - x_start), dim=1, largest=False).indices
        rows.append(torch.arange(y_start, y_end).repeat_interleave(nearest.size(1)))
        cols.append(nearest.flatten() + x_start)
    return torch.stack([torch.cat(rows), torch.cat(cols)], dim=0)


if __name__ == "__main__":
    torch.manual_seed(0)
    # support points for the first two clouds only, queries for all three
    x = torch.randn(22, 3)
    batch_x = torch.tensor([0] * 10 + [1] * 12)
    y = torch.randn(12, 3)
    batch_y = torch.tensor([0] * 4 + [1] * 4 + [2] * 4)
    edges = knn(x, y, k=3, batch_x=batch_x, batch_y=batch_y)
    found = {}
    for r, c in edges.t().tolist():
        found.setdefault(r, set()).add(c)
    for i in range(y.size(0)):
        cands = [j for j in range(x.size(0)) if int(batch_x[j]) == int(batch_y[i])]
        if not cands:
            assert i not in found
            continue
        d = [(sum((float(y[i, f]) - float(x[j, f])) ** 2 for f in range(3)), j) for j in cands]
        expected = {j for _, j in sorted(d)[:3]}
        assert found[i] == expected, (i, found[i], expected)
    print("ok")
