from typing import Optional, Sequence

import torch
from torch import Tensor


def distance_transform(x: Tensor, sampling: Optional[Sequence[float]] = None) -> Tensor:
    """Euclidean distance transform of a binary image (pure-torch engine).

    Args:
        x: binary image of shape ``(height, width)``; foreground pixels are 1
        sampling: pixel spacing along ``(height, width)``

    Returns:
        tensor of shape ``(height, width)`` holding, for every foreground pixel, the distance to the
        closest background pixel, and 0 on the background

    """
    if sampling is None:
        sampling = [1.0, 1.0]
    i0, j0 = torch.where(x == 0)
    i1, j1 = torch.where(x == 1)
    dis_row = (i1.view(-1, 1) - i0.view(1, -1)).abs()
    dis_col = (j1.view(-1, 1) - j0.view(1, -1)).abs()
    h, _ = x.shape
    dis = ((sampling[0] * dis_row) ** 2 + (sampling[1] * dis_col) ** 2).sqrt()
    mindis, _ = torch.min(dis, dim=1)
    z = torch.zeros_like(x, dtype=torch.float).view(-1)
    z[i1 * h + j1] = mindis
    return z.view(x.shape)


def reference_distance_transform(x):
    h, w = x.shape
    bg = [(i, j) for i in range(h) for j in range(w) if x[i, j] == 0]
    out = torch.zeros(h, w)
    for i in range(h):
        for j in range(w):
            if x[i, j] == 1:
                out[i, j] = min(((i - a) ** 2 + (j - b) ** 2) ** 0.5 for a, b in bg)
    return out


if __name__ == "__main__":
    gen = torch.Generator().manual_seed(3)
    mask = (torch.rand(11, 7, generator=gen) > 0.6).long()  # a non-square segmentation mask
    mask[-1, -1] = 1
    dt = distance_transform(mask)
    print("distance transform matches loop reference:", torch.allclose(dt, reference_distance_transform(mask)))
